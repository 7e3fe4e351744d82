#!/usr/bin/env python3
# pdats2_coldpred.py THUMB.din...  (issue 34: a measurement, not a CTest test)
# For each instruction address executed for the first time and followed by a 2- or 4-byte step, how often
# decoder-reproducible guesses of its size miss: L (the size learned last, version 2), always 2, always 4,
# the last size seen after the same 2/3/4 previous sizes (h2..h4), a 2-bit counter (cnt), the neighbour.
import sys
def run(fn):
    seen={}
    prev=None
    preds={'L':0,'always2':0,'always4':0,'h2':0,'h3':0,'h4':0,'cnt':0,'nb':0}
    n=0
    L=2; hist=0; ctx2={}; ctx3={}; ctx4={}; cnt=1
    for line in open(fn):
        t,a=line.split()
        if t!='2': continue
        a=int(a,16)
        if prev is not None:
            d=a-prev
            if d in (2,4) and prev not in seen:
                n+=1
                preds['L']+= (L==d)
                preds['always2']+=(d==2); preds['always4']+=(d==4)
                preds['h2']+= (ctx2.get(hist&3,L)==d)
                preds['h3']+= (ctx3.get(hist&7,L)==d)
                preds['h4']+= (ctx4.get(hist&15,L)==d)
                preds['cnt']+= ((4 if cnt>=2 else 2)==d)
                # neighbour: size of instruction ending at prev (prev-2 or prev-4 known)
                nb = seen.get(prev-2)==2 and 2 or (seen.get(prev-4)==4 and 4) or L
                preds['nb']+=(nb==d)
            if d in (2,4):
                if prev not in seen:
                    pass
                seen[prev]=d
                ctx2[hist&3]=d; ctx3[hist&7]=d; ctx4[hist&15]=d
                hist=(hist<<1)|(d==4)
                L=d
                cnt = min(3,cnt+1) if d==4 else max(0,cnt-1)
        prev=a
    print(fn, 'cold', n, ' '.join('%s=%d'%(k,n-v) for k,v in preds.items()), '(misses)')
for f in sys.argv[1:]: run(f)
