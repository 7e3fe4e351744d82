#!/usr/bin/env python3
"""Why a Thumb-2 build's PDATS II density differs from the ARM build's
(issue 34): for each pair ARM.din THUMB.din, converts both with CITCAT and
splits PDATS II's refs/byte ratio Thumb/ARM into
  refs factor  = Thumb refs / ARM refs (the programs' reference counts:
                 the compilers' code, not the encoder),
  bytes factor = ARM bytes / Thumb bytes,
and the bytes into data records and instruction records by kind (PDATS2.md
"Version 2": i0 = successor runs, i1/i2 = 1- and 2-byte jumps, i3 = other
successor, esc = escapes and mode records).  Not a CTest test: a
measurement (minutes on the MiBench2 dins).
Usage: pdats2_gap.py CITCAT ARM.din THUMB.din [ARM.din THUMB.din ...]"""
import collections, os, subprocess, sys, tempfile


def records(fn):
    """Bytes and counts per record kind of a PDATS II file (no prediction
    needed: a record's length follows from its header)."""
    b = open(fn, 'rb').read()
    assert b[:4] == b'PDT2', fn
    ver, wide, pos = b[4], b[5] // 8, 8
    n, nb = collections.Counter(), collections.Counter()
    while True:
        h = b[pos]
        if not h & 0x80:
            cc, cnt = (h >> 5) & 3, h & 31
            if cc == 1 and b[pos + 1] == (0 if ver == 2 else 1):
                if cnt == 31:
                    break
                k, l = 'esc', 3 if cnt == 7 and ver == 2 else 2 + wide
            else:
                k, l = 'i%d' % cc, 1 + (cc if cc in (1, 2) else 0 if ver == 2 or cc == 0 else wide)
        else:
            oc = (h >> 3) & 7
            k, l = 'data', 1 + (0 if oc < 5 else 1 if oc == 5 else 2 if oc == 6 else wide)
        n[k] += 1
        nb[k] += l
        pos += l
    return n, nb


def measure(citcat, din, tmp):
    out = os.path.join(tmp, 'x.pdats2')
    subprocess.run([citcat, 'convert', din, '-o', out], check=True, stderr=subprocess.DEVNULL)
    ni = nd = 0
    with open(din) as f:
        for line in f:
            t = line[0]
            if t == '2':
                ni += 1
            elif t in '01':
                nd += 1
    refs = sum(1 for _ in open(din))
    n, nb = records(out)
    return dict(refs=refs, I=ni, D=nd, file=os.path.getsize(out), n=n, b=nb)


def main():
    if len(sys.argv) < 4 or len(sys.argv) % 2:
        sys.exit(__doc__)
    citcat = sys.argv[1]
    kinds = ['data', 'i0', 'i1', 'i2', 'i3', 'esc']
    print('%-18s %10s %10s %8s %9s %7s | %s' % ('trace', 'refs', 'insns', 'data', 'file B', 'refs/B',
                                             ' '.join('%8s' % k for k in kinds)))
    with tempfile.TemporaryDirectory() as tmp:
        for a, t in zip(sys.argv[2::2], sys.argv[3::2]):
            m = [measure(citcat, d, tmp) for d in (a, t)]
            for d, x in zip((a, t), m):
                print('%-18s %10d %10d %8d %9d %7.3f | %s' % (
                    os.path.basename(d)[:-4], x['refs'], x['I'], x['D'], x['file'], x['refs'] / x['file'],
                    ' '.join('%8d' % x['b'][k] for k in kinds)))
            A, T = m
            rf, bf = T['refs'] / A['refs'], A['file'] / T['file']
            print('  Thumb/ARM %.4f = refs factor %.4f x bytes factor %.4f; Thumb minus ARM bytes: %s\n' % (
                rf * bf, rf, bf, ' '.join('%s %+d' % (k, T['b'][k] - A['b'][k]) for k in kinds)))


main()
