#!/usr/bin/env python3
# pdats2_v3sim.py WIN DIN...  (issue 34: a measurement, not a CTest test)
#
# A byte-exact model of PDATS II version 2's encoder (formats/pdats2.c, as
# `citcat convert X.din -o X.pdats2` runs it: S = 4, V = 0 at the start; it
# counts payload bytes only, so the file is 22 bytes more for a 32-bit din),
# run side by side with a SKETCHED version 3 that was measured and not built:
#   in size mode V = 1, a fetch that follows an instruction whose size is not
#   yet known first reads that size from a size bit (once per key: the table
#   then holds it), the bits packed 8 to a byte across records (ideal
#   packing, ceil(bits / 8), when WIN = 0; with WIN > 0 a size byte's unused
#   bits are dropped once WIN records have begun after it, the bound a
#   streaming encoder needs to flush), so v2's cold-size "other successor" records
#   (1 byte each) disappear.  Everything else is version 2.
# Checked against the real writer: v2_payload + 22 equals the .pdats2 file
# size on every din it was run on (pdats3-report.md), and since version 3
# was built (pdats3b) v3_payload + 22 equals the version 3 file on all 30
# example dins.  Records are numbered as the decoder begins them (the
# window counts those): a fetch's bit is placed once the record holding it
# is known, a waiting data record's bits when its count settles.
# Prints per din: v2 and v3 payload bytes, the size bits, the bytes saved,
# and the other-successor (i3) records before and after.
import sys
M32=0xffffffff
def sext(v): v&=M32; return v-(1<<32) if v>>31 else v
def lenfor(v): return 1 if -128<=v<=127 else 2 if -32768<=v<=32767 else 4
class Enc:
    def __init__(s, v3):
        s.v3=v3; s.S=4; s.sh=2; s.var=False; s.L=4; s.clear()
        s.ilast=0; s.zone=[0,0]; s.zmru=1; s.b=0; s.pcount=0; s.pmax=0
        s.dpend=False; s.dgot=0; s.dwant=0; s.ron=False; s.rkey=0; s.rlen=0; s.bits=0; s.i3=0; s.rec=0; s.sb=0; s.sused=8; s.sr0=0; s.dbits=set(); s.pb=False
    def clear(s): s.size={}; s.target={}; s.taken={}; s.run={}
    def key(s,a): return (a>>s.sh)&0xffff
    def sz(s,pc): return s.size.get(s.key(pc), s.L) if s.var else s.S
    def succ(s,pc):
        k=s.key(pc); return s.target[k] if s.taken.get(k) else (pc+s.sz(pc))&M32
    def other(s,pc):
        k=s.key(pc); n=s.sz(pc)
        if s.taken.get(k): return (pc+n)&M32
        if k in s.target: return s.target[k]
        return (pc+(3*s.S-n if s.var else 2*s.S))&M32
    def learn(s,pc,a):
        d=(a-pc)&M32; k=s.key(pc)
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
            k=min(n,32); s.b+=1; s.rec+=1; s.pcount=k-1
            for j in range(first,first+k):
                if j in s.dbits: s.addbit()
            first+=k; n-=k
        s.pmax=31
    def settle(s):
        if not s.dpend: return
        s.dpend=False; m=s.dgot; s.pmax=0
        for j in s.dbits:
            if j<=2: s.addbit()
        if m>=3: s.nextrec(m-2,3)
        s.dbits=set()
    def endrun(s):
        if s.ron and s.rlen>=3: s.run[s.rkey]=min(s.rlen,255)
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
                if s.dgot==s.dwant:
                    s.dpend=False; s.pmax=0
                    for j in s.dbits: s.addbit()
                    s.dbits=set()
                return
            if s.pcount<s.pmax:
                s.pcount+=1
                if s.pb: s.addbit()
                return
            s.nextrec(1)
            if s.pb: s.addbit()
            return
        s.brk()
        d=(a-pc)&M32
        if d & (s.S-1):
            sh=(d & -d).bit_length()-1
            s.b+=3; s.rec+=1; s.pmax=0; s.S=1<<sh; s.sh=sh; s.var=True; s.L=s.S; s.clear()
            s.cold(pc,a)
            if a==s.succ(pc):
                s.learn(pc,a); s.ilast=a; s.nextrec(1)
                if s.pb: s.addbit()
                return
        q=sext(d)>>s.sh
        if a==s.other(pc): n=0; s.i3+=1
        else: n=lenfor(q) if q!=0 else 2
        s.rec+=1
        if n==4: s.b+=6; s.pmax=0
        else: s.b+=1+n; s.pcount=0; s.pmax=31
        if s.pb: s.addbit()
        s.learn(pc,a); s.ilast=a
    def data(s,a,t):
        s.brk()
        s.rec+=1
        if t>1: s.b+=6; s.pmax=0; return
        s0=sext(a-s.zone[0]); s1=sext(a-s.zone[1])
        l0=0 if s0 in (0,4,-4,8,-8) else lenfor(s0); l1=0 if s1 in (0,4,-4,8,-8) else lenfor(s1)
        z=0 if l0<l1 else 1 if l1<l0 else 1-s.zmru
        s.b+=1+(l1 if z else l0); s.zone[z]=a; s.zmru=z
        k=s.key(s.ilast); s.dpend=True; s.dgot=0; s.dwant=s.run.get(k) or 3
        s.pcount=0; s.pmax=0; s.ron=True; s.rkey=k; s.rlen=0
    def finish(s):
        s.brk(); return s.b+(s.sb if WIN else (s.bits+7)//8)
WIN=int(sys.argv[1])
for f in sys.argv[2:]:
    e2=Enc(False); e3=Enc(True)
    for line in open(f):
        t,a=line.split(); t=int(t); a=int(a,16)
        if t==2: e2.fetch(a); e3.fetch(a)
        else: e2.data(a,t); e3.data(a,t)
    b2=e2.finish(); b3=e3.finish()
    print('%-20s v2_payload %9d v3_payload %9d (size bits %5d) saved %6d  i3 %d -> %d' % (f, b2, b3, e3.bits, b2-b3, e2.i3, e3.i3), flush=True)
