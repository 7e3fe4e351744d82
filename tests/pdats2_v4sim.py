#!/usr/bin/env python3
# pdats2_v4sim.py VARIANT... -- DIN...  (issue 34: a measurement, not a CTest test)
#
# pdats2_v3sim.py's byte-exact model of PDATS II version 3's encoder (WIN
# 16, as built) run beside sketched version 4 variants that keep, per key,
# an MRU list of the last N distinct successors of an instruction
# (fall-through included) and change what the other successor (cc = 3)
# means, and optionally code deeper hits with indices.  VARIANT:
#   mN     other successor = the most recent of the N listed successors
#          that is not the predicted successor (v2's other when none)
#   mNxK   as mN, plus the next K deeper list entries coded as cc = 3
#          records whose count field is split in K+1 equal parts (the
#          count then tops out lower, so long runs after them cost a cc = 0
#          record more)
#   ...rH  (suffix) data count codes from the last H different learned runs:
#          code 3 the last, code 2 the one before (else 2), with H = 3 code
#          1 the third (else 1); H defaults to 2
#   ...s   (suffix, with r) runs of 2 are learned too, and code 2 means 3
#          when the last run is 2
#   r      the runs alone (no successor list)
#   a      (prefix, instead of mN) the other successor is alt[k], the
#          predicted successor a fetch after the instruction last missed
#          (set on every fetch that is not the predicted successor), when
#          it is not the predicted successor now; else v2's
# The version 4 built on branch pdats4 and not kept (PDATS2.md "A version
# 4, built and measured, not kept") is m2rs: that writer's file was this
# model's payload + 22 on every din compared
# (14 of the 30 example dins: idle, counter, uartline, sched, crc32_thumb,
# dijkstra, dijkstra_m7 and their builds listed in pdats4-report.md).
# Prints per din and variant: payload bytes (the file is payload + 22),
# bytes against v3, and hit counts; KINDS=1 adds bytes per record kind,
# MISSES=N the N sources of most unpredicted jumps.
# Usage: pdats2_v4sim.py m2 m2rs -- X.din ...
import sys
M32=0xffffffff
def sext(v): v&=M32; return v-(1<<32) if v>>31 else v
def lenfor(v): return 1 if -128<=v<=127 else 2 if -32768<=v<=32767 else 4
class Enc:
    def __init__(s, v3, N=0, K=0, R=False, RS=False):
        s.R=R; s.RS=RS; s.N=N; s.K=K; s.msrc={}; s.kb=dict.fromkeys(('data','i0','i1','i2','i3','i4','esc','mode','i0short','i0full','i0after','r2hit','r3hit'),0); s.hit=[0]*8; s.miss=0; s.v3=v3; s.S=4; s.sh=2; s.var=False; s.L=4; s.clear()
        s.ilast=0; s.zone=[0,0]; s.zmru=1; s.b=0; s.pcount=0; s.pmax=0
        s.dpend=False; s.dgot=0; s.dwant=0; s.ron=False; s.rkey=0; s.rlen=0; s.bits=0; s.i3=0; s.rec=0; s.sb=0; s.sused=8; s.sr0=0; s.dbits=set(); s.pb=False
    def clear(s): s.size={}; s.target={}; s.taken={}; s.run={}; s.run2={}; s.mru={}; s.alt={}
    def key(s,a): return (a>>s.sh)&0xffff
    def sz(s,pc): return s.size.get(s.key(pc), s.L) if s.var else s.S
    def succ(s,pc):
        k=s.key(pc); return s.target[k] if s.taken.get(k) else (pc+s.sz(pc))&M32
    def cands(s,pc):
        # the other successor then the K index codes, v4 (N > 0)
        sc=s.succ(pc)
        if s.N<0:
            al=s.alt.get(s.key(pc)); return [al if al is not None and al!=sc else s.other2(pc)]
        m=[x for x in s.mru.get(s.key(pc),()) if x!=sc]
        if not m: m=[s.other2(pc)]
        return m[:1+s.K]
    def other(s,pc):
        return s.cands(pc)[0] if s.N else s.other2(pc)
    def other2(s,pc):
        k=s.key(pc); n=s.sz(pc)
        if s.taken.get(k): return (pc+n)&M32
        if k in s.target: return s.target[k]
        return (pc+(3*s.S-n if s.var else 2*s.S))&M32
    def learn(s,pc,a):
        d=(a-pc)&M32; k=s.key(pc)
        if s.N>0:
            m=s.mru.get(k)
            if m is None: s.mru[k]=[a]
            elif m[0]!=a:
                if a in m: m.remove(a)
                m.insert(0,a); del m[s.N:]
        if s.var and d in (s.S,2*s.S): s.size[k]=d; s.L=d
        if d==s.sz(pc): s.taken[k]=0
        else: s.target[k]=a; s.taken[k]=1
    def cold(s,pc,a):
        # v3: the fetch from pc to a needs a size bit (s.pb); it is placed
        # by addbit once the record holding the fetch is known
        s.pb=False
        if not (s.v3 and s.var): return
        k=s.key(pc)
        if k in s.size: return
        d=(a-pc)&M32
        if d % s.S: return
        s.bits+=1; s.pb=True
        s.size[k]= d if d in (s.S,2*s.S) else s.L
    def addbit(s):
        # the bit of a fetch of record number s.rec (records counted from 1
        # as the decoder begins them): into the open size byte when it has
        # room and fewer than WIN records have begun after it, else a new
        # size byte after this record
        if s.sused<8 and s.rec-s.sr0<WIN: s.sused+=1
        else: s.sb+=1; s.sused=1; s.sr0=s.rec
    def nextrec(s,n,first=0):
        # first: the data run fetch number of the first fetch (settle), whose bits wait in s.dbits
        while n:
            k=min(n,32); s.b+=1; s.kb['i0']+=1; s.rec+=1; s.pcount=k-1
            for j in range(first,first+k):
                if j in s.dbits: s.addbit()
            first+=k; n-=k
        s.pmax=31
    def settle(s):
        if not s.dpend: return
        s.settle_m(s.dgot)
    def settle_m(s,m):
        # the count of the waiting data record for a run of m fetches: cc 3
        # (run[k]), cc 2 (run2[k] with R, else 2), else the largest <= m,
        # the rest as cc = 0 records
        s.dpend=False; s.pmax=0
        if m in (s.c3,s.c2,s.c1): c=m
        else: c=max(x for x in (0,s.c1,s.c2,s.c3) if x<=m)
        if s.R and c==s.c2 and s.c2!=2: s.kb['r2hit']+=1
        if s.R and c==s.c1 and s.c1!=1: s.kb['r3hit']+=1
        for j in s.dbits:
            if j<=c: s.addbit()
        if m>c: s.nextrec(m-c,c+1); s.kb['i0short']+=1
        s.dbits=set()
    def endrun(s):
        if s.ron and s.rlen>=(2 if s.RS else 3):
            r=min(s.rlen,255); s.run[s.rkey]=r
            if s.R:
                h=s.run2.setdefault(s.rkey,[])
                if r in h: h.remove(r)
                h.insert(0,r); del h[s.R:]
        s.ron=False
    def brk(s): s.settle(); s.endrun()
    def fetch(s,a):
        pc=s.ilast
        s.cold(pc,a)
        if a==s.succ(pc):
            s.learn(pc,a); s.ilast=a; s.rlen+=s.ron
            if s.dpend:
                s.dgot+=1
                if s.pb: s.dbits.add(s.dgot)
                if s.dgot==s.dwant: s.settle_m(s.dgot)
                return
            if s.pcount<s.pmax:
                s.pcount+=1
                if s.pb: s.addbit()
                return
            s.kb['i0full' if s.pmax else 'i0after']+=1
            s.nextrec(1)
            if s.pb: s.addbit()
            return
        s.brk()
        d=(a-pc)&M32
        if d & (s.S-1):
            sh=(d & -d).bit_length()-1
            s.b+=3; s.kb['mode']+=3; s.rec+=1; s.pmax=0; s.S=1<<sh; s.sh=sh; s.var=True; s.L=s.S; s.clear()
            s.cold(pc,a)
            if a==s.succ(pc):
                s.learn(pc,a); s.ilast=a; s.nextrec(1)
                if s.pb: s.addbit()
                return
        q=sext(d)>>s.sh
        c=s.cands(pc) if s.N else [s.other2(pc)]
        if a in c: n=0; s.i3+=1; s.hit[c.index(a)]+=1
        else: n=lenfor(q) if q!=0 else 2; s.miss+=1; s.msrc[(pc,n)]=s.msrc.get((pc,n),0)+1
        s.rec+=1
        if n==4: s.b+=6; s.pmax=0; s.kb['i4']+=6
        else: s.b+=1+n; s.kb['i%d'%(n if n else 3)]+=1+n; s.pcount=0; s.pmax=31 if n or not s.K else 32//(s.K+1)-1
        if s.pb: s.addbit()
        if s.N<0: s.alt[s.key(pc)]=s.succ(pc)
        s.learn(pc,a); s.ilast=a
    def data(s,a,t):
        s.brk()
        s.rec+=1
        if t>1: s.b+=6; s.kb['esc']+=6; s.pmax=0; return
        s0=sext(a-s.zone[0]); s1=sext(a-s.zone[1])
        l0=0 if s0 in (0,4,-4,8,-8) else lenfor(s0); l1=0 if s1 in (0,4,-4,8,-8) else lenfor(s1)
        z=0 if l0<l1 else 1 if l1<l0 else 1-s.zmru
        s.b+=1+(l1 if z else l0); s.kb['data']+=1+(l1 if z else l0); s.zone[z]=a; s.zmru=z
        k=s.key(s.ilast); s.dpend=True; s.dgot=0; s.c3=s.run.get(k) or 3
        h=s.run2.get(k,()) if s.R else ()
        s.c2=h[1] if len(h)>1 else 3 if s.c3==2 else 2
        s.c1=h[2] if len(h)>2 else 1
        s.dwant=max(s.c3,s.c2,s.c1)
        s.pcount=0; s.pmax=0; s.ron=True; s.rkey=k; s.rlen=0
    def finish(s):
        s.brk(); return s.b+(s.sb if WIN else (s.bits+7)//8)

args=sys.argv[1:]; cut=args.index('--'); vars_=args[:cut]; dins=args[cut+1:]
WIN=16
def parse(v):
    # v3, r (run2 only), mN, mNxK, mNr
    R=0; RS=v.endswith('s'); v=v.rstrip('s')
    if 'r' in v: v,_,R=v.partition('r'); R=int(R or 2)
    if v in ('v3',''): return (0,0,R,RS)
    if v=='a': return (-1,0,R,RS)
    n,_,k=v[1:].partition('x'); return (int(n),int(k or 0),R,RS)
for f in dins:
    encs=[Enc(True,*parse(v)) for v in ['v3']+vars_]
    for line in open(f):
        t,a=line.split(); t=int(t); a=int(a,16)
        if t==2:
            for e in encs: e.fetch(a)
        else:
            for e in encs: e.data(a,t)
    b=[e.finish() for e in encs]
    out='%-22s v3 %9d' % (f.rsplit('/',1)[-1], b[0])
    for v,e,x in zip(vars_,encs[1:],b[1:]):
        out+=' | %s %9d %+6d hit %s miss %d' % (v, x, x-b[0], '/'.join(map(str,e.hit[:1+e.K])), e.miss)
    out+=' | v3 hit %d miss %d' % (encs[0].hit[0], encs[0].miss)
    print(out, flush=True)
    import os
    if os.environ.get('KINDS'):
        for e,v in zip(encs,['v3']+vars_):
            print('   %s bytes by kind: %s size %d' % (v, ' '.join('%s %d'%kv for kv in e.kb.items()), e.sb))
    if os.environ.get('MISSES'):
        for e,v in zip(encs,['v3']+vars_):
            top=sorted(e.msrc.items(),key=lambda x:-x[1])[:int(os.environ['MISSES'])]
            print('   %s misses by (source, offset bytes): %s' % (v, ' '.join('%x/%d:%d'%(k[0],k[1],c) for k,c in top)))
