# firmware.mk - build one firmware ELF for the modelled Cortex-M7 target
# without CMake:
#
#   make -f examples/bsp-m7/firmware.mk SRC="myprog.c util.c" OUT=myprog.elf
#
# C++ sources (.cpp, .cc, .cxx) are compiled with $(CROSS)g++ (C++17,
# -fno-exceptions -fno-rtti -fno-threadsafe-statics, as on the A target)
# and link libstdc++ (nano).
# Optional: CFLAGS_EXTRA (C sources), CXXFLAGS_EXTRA (C++), ASFLAGS_EXTRA (.S/.s), CPPFLAGS_EXTRA
# (both), LDFLAGS_EXTRA (the link, e.g. "-u _printf_float"), CROSS
# (default arm-none-eabi-).  See citcat_firmware_m7.cmake for the flags and
# the BSP (examples/bsp-m7/ plus crt.c and syscalls.c of examples/bsp/).
# The ELF is checked with ../bsp/check-firmware.sh (target m7).

BSP    := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
SHARED := $(BSP)/../bsp
CROSS  ?= arm-none-eabi-
CC     := $(CROSS)gcc
CXX    := $(CROSS)g++
OUT    ?= firmware.elf
OBJ    := $(OUT).obj

ifeq ($(strip $(SRC)),)
$(error set SRC to the program's C/C++/assembly sources, e.g. SRC=myprog.c)
endif

COMMON   := -mcpu=cortex-m7 -mthumb -mfloat-abi=soft --specs=nano.specs -O2 -g -ffunction-sections -fdata-sections
CPPFLAGS := -I$(BSP) -I$(SHARED) $(CPPFLAGS_EXTRA)
CFLAGS   := $(COMMON) -std=c11 -Wall -Wextra -Wstrict-prototypes -fno-common $(CFLAGS_EXTRA)
CXXFLAGS := $(COMMON) -std=c++17 -Wall -Wextra -fno-exceptions -fno-rtti -fno-threadsafe-statics $(CXXFLAGS_EXTRA)
ASFLAGS  := $(COMMON) $(ASFLAGS_EXTRA)
BSP_SRC  := $(BSP)/startup.S $(SHARED)/crt.c $(SHARED)/syscalls.c $(BSP)/citcat_driver_m7.S

.DEFAULT_GOAL := $(OUT)

ALL_SRC := $(BSP_SRC) $(SRC)
objname = $(OBJ)/$(1)_$(notdir $(word $(1),$(ALL_SRC))).o
NUMS    := $(shell seq 1 $(words $(ALL_SRC)))
OBJS    := $(foreach i,$(NUMS),$(call objname,$(i)))

define compile_rule
$(call objname,$(1)): $(word $(1),$(ALL_SRC)) $(BSP)/citcat_m7.h $(SHARED)/citcat_target.h $(SHARED)/citcat_regs.h | $(OBJ)
	$$(if $$(filter %.S %.s,$$<),$(CC) $$(ASFLAGS) $$(CPPFLAGS),$$(if $$(filter %.cpp %.cc %.cxx,$$<),$(CXX) $$(CXXFLAGS) $$(CPPFLAGS),$(CC) $$(CFLAGS) $$(CPPFLAGS))) -c $$< -o $$@
endef
$(foreach i,$(NUMS),$(eval $(call compile_rule,$(i))))

$(OBJ):
	mkdir -p $@

$(OUT): $(OBJS) $(BSP)/link.ld
	$(CC) $(COMMON) $(OBJS) $(LDFLAGS_EXTRA) -nostartfiles -T $(BSP)/link.ld -Wl,--gc-sections -Wl,--build-id \
	    $(if $(filter %.cpp %.cc %.cxx,$(SRC)),-lstdc++) -lm -o $@.tmp
	sh $(SHARED)/check-firmware.sh $@.tmp $(CROSS) m7
	mv $@.tmp $@

.PHONY: clean
clean:
	rm -rf $(OUT) $(OUT).tmp $(OBJ)
