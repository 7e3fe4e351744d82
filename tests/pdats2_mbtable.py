#!/usr/bin/env python3
# pdats2_mbtable.py OUT.tsv (issue 34: a measurement): the refs/byte table of
# tests/pdats2_mbcheck.sh's rows for programs with ARM, _thumb and _m7 dins.
import sys
# mbtable.py TSV: ARM / Thumb / M7 raw refs/byte and Thumb/ARM from mb_v3.sh's output
d={}
for l in open(sys.argv[1]):
    f=l.split('\t'); d[f[0]]=(int(f[1]),int(f[3]))
progs=sorted({k.replace('_thumb','').replace('_m7','') for k in d})
print('| program | refs ARM | bytes ARM | refs Thumb | bytes Thumb | ARM refs/B | Thumb refs/B | M7 refs/B | Thumb/ARM |')
print('|---|---|---|---|---|---|---|---|---|')
n=0
for p in progs:
    a=d[p]; t=d[p+'_thumb']; m=d[p+'_m7']
    ra=a[0]/a[1]; rt=t[0]/t[1]; rm=m[0]/m[1]; r=rt/ra; n+=r>=1
    print('| %s | %d | %d | %d | %d | %.3f | %.3f | %.3f | %s |'%(p,a[0],a[1],t[0],t[1],ra,rt,rm,('**%.4f**' if r<1 else '%.4f')%r))
print('\nThumb >= ARM on %d of %d'%(n,len(progs)))
