#!/usr/bin/env python3
# pdats2_v3table.py TABLE.txt SIM.txt EST.txt  (issue 34: a measurement, not a CTest test)
# The v2/v3 refs/byte table of pdats3-report.md from the outputs of
#   pdats2_table.sh CITCAT *.din > TABLE.txt, pdats2_v3sim.py 16 *_thumb.din *_m7.din > SIM.txt,
#   pdats2_v3est.py *_thumb.din *_m7.din > EST.txt
# (the v3 file is the modelled payload + 22; asserts the model's v2 + 22 is the real file's size).
import re, sys
refs={}; v2file={}
for l in open(sys.argv[1]).read().split('\n')[1:]:
    if l.strip():
        f=l.split(); refs[f[0]]=int(f[1]); v2file[f[0]]=int(f[2])
v3={}
for l in open(sys.argv[2]):
    m=re.match(r'(\S+)\.din\s+v2_payload\s+(\d+) v3_payload\s+(\d+)',l)
    if m:
        n=m.group(1); assert int(m.group(2))+22==v2file[n], n; v3[n]=int(m.group(3))+22
j={}
for l in open(sys.argv[3]):
    f=l.split(); j[f[0][:-4]]=int(f[-1])
ex='counter crc32 dijkstra idle matmul qsort sched sha256 strsearch uartline'.split()
print('| example | ARM v2 | Thumb v2 | Thumb v3 (proj.) | Thumb/ARM v2 | Thumb/ARM v3 | M7 v2 | M7 v3 (proj.) | Thumb 2-byte jumps within ±508 B | Thumb/ARM v3 + those as 1 byte |')
print('|---|---|---|---|---|---|---|---|---|---|')
c2=c3=c3j=0
for e in ex:
    a=refs[e]/v2file[e]; t2=refs[e+'_thumb']/v2file[e+'_thumb']; t3=refs[e+'_thumb']/v3[e+'_thumb']
    m2=refs[e+'_m7']/v2file[e+'_m7']; m3=refs[e+'_m7']/v3[e+'_m7']
    tj=refs[e+'_thumb']/(v3[e+'_thumb']-j[e+'_thumb'])
    c2+=t2>=a; c3+=t3>=a; c3j+=tj>=a
    b=lambda x: '**%.4f**'%x if x<1 else '%.4f'%x
    print('| %s | %.3f | %.3f | %.3f | %s | %s | %.3f | %.3f | %d | %s |'%(e,a,t2,t3,b(t2/a),b(t3/a),m2,m3,j[e+'_thumb'],b(tj/a)))
print('\nThumb >= ARM: v2 %d of 10, v3 (projected) %d of 10, v3 plus a +-508-byte 1-byte jump (upper bound) %d of 10'%(c2,c3,c3j))
