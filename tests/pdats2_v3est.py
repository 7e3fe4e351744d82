#!/usr/bin/env python3
# pdats2_v3est.py THUMB.din...  (issue 34: a measurement, not a CTest test; approximate record model)
# v3 sketch estimate on a Thumb-2 din: v2's instruction predictor, except that a fetch following an
# instruction of unknown size takes the size from a size bit (set per key, once); size bits are packed
# per record (a record = the stretch of fetches after a data record or an instruction record that is not
# a continuation; at most 32 fetches per instruction record), so each record with c cold fetches pays
# ceil(c/8) bytes.  Prints v2's cold misses (bytes saved), the size-byte cost, and 2-byte jumps reachable
# with a +-508-byte 1-byte offset.
import sys, collections
def run(fn):
    S=2; sh=1; M=65535
    size={}; target={}; taken={}; L=S
    st=collections.Counter(); prev=None; seg_cold=0; seg_n=0; seg_kind='i'
    def close():
        nonlocal seg_cold
        st['sizebytes'] += (seg_cold+7)//8
        seg_cold=0
    for line in open(fn):
        t,a=line.split()
        a=int(a,16)
        if t!='2':
            close(); seg_kind='d'; seg_n=0
            continue
        if prev is not None:
            p=prev; k=(p>>sh)&M
            known = k in size
            # v2's prediction (for the cold-miss count)
            n2 = size.get(k,L)
            d=a-p
            if not known:
                size[k]=d if d in (2,4) else L
                if not taken.get(k) and k not in target and d in (2,4) and d!=n2: st['v2coldmiss']+=1
            n = size[k]
            succ = target[k] if taken.get(k) else p+n
            if a==succ:
                seg_n+=1
                if seg_kind=='i' and seg_n>32: close(); seg_n=1
            else:
                close(); seg_kind='i'; seg_n=1
                if not (a==(p+n if taken.get(k) else target.get(k,-1))):
                    q=d>>sh
                    if not (-128<=q<=127) and -32768<=q<=32767 and abs(d)<=508: st['j2reach508']+=1
            if not known: seg_cold+=1
            if d in (S,2*S): size[k]=d; L=d
            nn = size[k]
            if d==nn: taken[k]=0
            else: target[k]=a; taken[k]=1
        prev=a
    close()
    return st
for f in sys.argv[1:]:
    st=run(f); print('%-22s v2coldmiss %4d sizebytes %4d net %+5d   j2reach508 %4d' % (f, st['v2coldmiss'], st['sizebytes'], st['v2coldmiss']-st['sizebytes'], st['j2reach508']))
