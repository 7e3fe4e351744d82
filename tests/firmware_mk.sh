#!/usr/bin/env bash
# examples/bsp/firmware.mk (issue 12): C++ with libstdc++, per-language flags
# (a C-only flag must not reach C++ or assembly, and the other way round),
# libm, and printf("%f") with LDFLAGS_EXTRA="-u _printf_float"; each ELF runs
# to EXIT 0 on the model with the expected UART line.  The M7 BSP's
# firmware.mk builds the C++ demo too (issue 35), with a build id.
# Usage: firmware_mk.sh CITCAT SOURCE_DIR
set -u
citcat=$1 src=$2
. "$(dirname "$0")/testlib.sh"
mk="$src/examples/bsp/firmware.mk"

run() { # ELF PATTERN: capture, EXIT 0, the UART matches PATTERN
  "$citcat" capture "$1" -o "$t/run.cat" --uart-out "$t/uart" --seed 1 -q 2>"$t/log" || fail "capture $1: $(cat "$t/log")"
  grep -q -- "$2" "$t/uart" || fail "$1: UART lacks '$2': $(head -c 300 "$t/uart")"
}

# C++: the demo, plus one C and one C++ file that fail to compile when the
# other language's flags reach them, and an assembly file likewise
printf '#ifdef C_ONLY\n#error C flags reached C++\n#endif\nint cxx_guard;\n' >"$t/guard.cpp"
printf '#ifdef CXX_ONLY\n#error C++ flags reached C\n#endif\nint c_guard;\n' >"$t/guard.c"
printf '#if defined(C_ONLY) || defined(CXX_ONLY)\n#error C or C++ flags reached assembly\n#endif\n#ifndef BOTH\n#error CPPFLAGS_EXTRA missing\n#endif\n' >"$t/guard.S"
make -s -f "$mk" SRC="$src/examples/cxx_demo/main.cpp $t/guard.cpp $t/guard.c $t/guard.S" OUT="$t/cxx.elf" \
  CFLAGS_EXTRA="-DC_ONLY" CXXFLAGS_EXTRA="-DCXX_ONLY -Werror" CPPFLAGS_EXTRA="-DBOTH" >"$t/make.log" 2>&1 ||
  fail "C++ build: $(cat "$t/make.log")"
run "$t/cxx.elf" "cxx_demo: 12800 shapes.* OK"

# C with libm and floating-point printf; a C++-only flag in CXXFLAGS_EXTRA must not reach C
cat >"$t/fp.c" <<'C'
#include <math.h>
#include <stdio.h>
volatile double x = 10.5625;
int main(void)
{
	printf("sqrt %.4f\n", sqrt(x));
	return 0;
}
C
make -s -f "$mk" SRC="$t/fp.c" OUT="$t/fp.elf" LDFLAGS_EXTRA="-u _printf_float" CXXFLAGS_EXTRA="-fno-rtti -Werror" \
  CFLAGS_EXTRA="-Werror" >"$t/make.log" 2>&1 || fail "C build with libm: $(cat "$t/make.log")"
run "$t/fp.elf" "sqrt 3.2500"
# without -u _printf_float newlib nano prints no digits (the documented pitfall)
make -s -f "$mk" SRC="$t/fp.c" OUT="$t/nofp.elf" >"$t/make.log" 2>&1 || fail "C build without _printf_float"
"$citcat" capture "$t/nofp.elf" -o "$t/run.cat" --uart-out "$t/uart" --seed 1 -q 2>/dev/null
grep -q "sqrt 3.2500" "$t/uart" && fail "printf printed %f without -u _printf_float: the documentation is wrong"

# THUMB=1 THUMB_EXCEPTIONS=1: SCTLR.TE = 1, the IRQ vector a Thumb-2 b.w
# (check-firmware.sh accepts it), and the program (timer interrupts) runs
make -s -f "$mk" SRC="$src/examples/idle/main.c" OUT="$t/idle_te.elf" THUMB=1 THUMB_EXCEPTIONS=1 >"$t/make.log" 2>&1 ||
  fail "THUMB_EXCEPTIONS build: $(cat "$t/make.log")"
arm-none-eabi-objdump -d "$t/idle_te.elf" | grep -Eq '^ +18:.*b\.w.*<citcat_irq_entry>' ||
  fail "THUMB_EXCEPTIONS: the IRQ vector is not a Thumb-2 b.w to citcat_irq_entry"
run "$t/idle_te.elf" "OK"

# the Cortex-M7 BSP's firmware.mk (issue 35): C++ through g++ and
# libstdc++ (no undefined __cxxabiv1 symbols), per-language flags, and a
# GNU build id that capture records in the CAT
mk7="$src/examples/bsp-m7/firmware.mk"
make -s -f "$mk7" SRC="$src/examples/cxx_demo/main.cpp $t/guard.cpp $t/guard.c" OUT="$t/cxx_m7.elf" \
  CFLAGS_EXTRA="-DC_ONLY" CXXFLAGS_EXTRA="-DCXX_ONLY -Werror" >"$t/make.log" 2>&1 ||
  fail "M7 C++ build: $(cat "$t/make.log")"
run "$t/cxx_m7.elf" "cxx_demo: 12800 shapes.* OK"
"$citcat" info "$t/run.cat" | grep -Eq "firmware .*cxx_m7.elf \(build id [0-9a-f]{40}\)" ||
  fail "the M7 CAT records no build id: $("$citcat" info "$t/run.cat" | grep firmware)"

finish firmware_mk
