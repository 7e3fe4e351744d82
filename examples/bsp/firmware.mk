# firmware.mk - build one firmware ELF for the modelled CITCAT target
# without CMake:
#
#   make -f examples/bsp/firmware.mk SRC="myprog.c util.c" OUT=myprog.elf
#   make -f examples/bsp/firmware.mk SRC="app.cpp drv.c" OUT=app.elf   # C++
#
# Optional:
#   CFLAGS_EXTRA="-DSCALE=4"   C sources only
#   CXXFLAGS_EXTRA="-O3"       C++ sources only (.cpp, .cc, .cxx)
#   ASFLAGS_EXTRA=...          assembly sources only (.S, .s)
#   CPPFLAGS_EXTRA="-DX=1"     all three (preprocessor)
#   LDFLAGS_EXTRA="-u _printf_float"   the link; newlib nano leaves printf's
#                              floating-point conversions out unless asked
#   CROSS=arm-none-eabi-
#   THUMB=1                    C and C++ in Thumb-2 (-mthumb) with GCC's Thumb
#                              multilib for the core (thumb/v7-a/nofp newlib,
#                              libm, libgcc, libstdc++); the BSP's assembly
#                              (vectors, IRQ entry, CITCAT driver) stays ARM
#                              and the linker interworks the calls
#   THUMB_EXCEPTIONS=1         SCTLR.TE = 1 at reset: exceptions are entered in
#                              Thumb state, and the IRQ/FIQ vectors and handlers
#                              of start.S are Thumb-2 (-DCITCAT_BSP_THUMB_EXCEPTIONS)
# Each source is compiled on its own by its language (C11 with C-only
# warnings; C++17 with -fno-exceptions -fno-rtti; assembly with the common
# flags only), into OUT.obj/, then linked with the BSP against newlib's
# libm and libc (nano), libgcc, and libstdc++ (nano, Debian's
# libstdc++-arm-none-eabi-newlib) when there is C++.  See
# citcat_firmware.cmake for why the libraries are named explicitly (the
# default "." multilib is the ARM-state one).  The ELF is checked with
# check-firmware.sh (no VFP, vectors at 0).

BSP   := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
CROSS ?= arm-none-eabi-
CC    := $(CROSS)gcc
CXX   := $(CROSS)g++
OUT   ?= firmware.elf
OBJ   := $(OUT).obj

ifeq ($(strip $(SRC)),)
$(error set SRC to the program's C/C++/assembly sources, e.g. SRC=myprog.c)
endif

ifeq ($(THUMB),1)
LIBFLAGS  := -mcpu=cortex-a9 -mthumb -mfloat-abi=soft --specs=nano.specs
ISAFLAG   := -mthumb
else
LIBFLAGS  := -marm -mfloat-abi=soft --specs=nano.specs
ISAFLAG   :=
endif
LIBC      := $(shell $(CC) $(LIBFLAGS) -print-file-name=libc_nano.a)
LIBM      := $(shell $(CC) $(LIBFLAGS) -print-file-name=libm.a)
LIBGCC    := $(shell $(CC) $(LIBFLAGS) -print-libgcc-file-name)
LIBSTDCXX := $(shell $(CC) $(LIBFLAGS) -print-file-name=libstdc++_nano.a)
COMMON    := -mcpu=cortex-a9 -marm -mfloat-abi=soft --specs=nano.specs -O2 -g -ffunction-sections -fdata-sections
CPPFLAGS  := -I$(BSP) $(if $(filter 1,$(THUMB_EXCEPTIONS)),-DCITCAT_BSP_THUMB_EXCEPTIONS=1) $(CPPFLAGS_EXTRA)
CFLAGS    := $(COMMON) $(ISAFLAG) -std=c11 -Wall -Wextra -Wstrict-prototypes -fno-common $(CFLAGS_EXTRA)
CXXFLAGS  := $(COMMON) $(ISAFLAG) -std=c++17 -Wall -Wextra -fno-exceptions -fno-rtti -fno-threadsafe-statics $(CXXFLAGS_EXTRA)
ASFLAGS   := $(COMMON) $(ASFLAGS_EXTRA)
BSP_SRC   := $(BSP)/start.S $(BSP)/crt.c $(BSP)/syscalls.c $(BSP)/citcat_driver.S

.DEFAULT_GOAL := $(OUT)

ALL_SRC := $(BSP_SRC) $(SRC)
# one object per source, numbered in link order (two sources may share a name)
objname = $(OBJ)/$(words $(wordlist 1,$(1),$(ALL_SRC)))_$(notdir $(word $(1),$(ALL_SRC))).o
NUMS    := $(shell seq 1 $(words $(ALL_SRC)))
OBJS    := $(foreach i,$(NUMS),$(call objname,$(i)))
CXX_SRC := $(filter %.cpp %.cc %.cxx,$(SRC))
LIBS    := $(if $(CXX_SRC),$(LIBSTDCXX)) $(LIBM) $(LIBC) $(LIBGCC)

define compile_rule
$(call objname,$(1)): $(word $(1),$(ALL_SRC)) $(BSP)/citcat_target.h $(BSP)/citcat_regs.h | $(OBJ)
	$$(if $$(filter %.S %.s,$$<),$(CC) $$(ASFLAGS) $$(CPPFLAGS),$$(if $$(filter %.cpp %.cc %.cxx,$$<),$(CXX) $$(CXXFLAGS) $$(CPPFLAGS),$(CC) $$(CFLAGS) $$(CPPFLAGS))) -c $$< -o $$@
endef
$(foreach i,$(NUMS),$(eval $(call compile_rule,$(i))))

$(OBJ):
	mkdir -p $@

$(OUT): $(OBJS) $(BSP)/link.ld
	$(CC) $(COMMON) $(OBJS) $(LDFLAGS_EXTRA) -nostartfiles -nodefaultlibs -T $(BSP)/link.ld \
	    -Wl,--gc-sections -Wl,--build-id -Wl,--start-group $(LIBS) -Wl,--end-group -o $@.tmp
	sh $(BSP)/check-firmware.sh $@.tmp $(CROSS)
	mv $@.tmp $@

.PHONY: clean
clean:
	rm -rf $(OUT) $(OUT).tmp $(OBJ)
