# firmware.mk - build one firmware ELF for the modelled CITCAT target
# without CMake:
#
#   make -f examples/bsp/firmware.mk SRC="myprog.c util.c" OUT=myprog.elf
#
# Optional: CFLAGS_EXTRA="-DSCALE=4", CROSS=arm-none-eabi-
# It compiles and links the sources with the BSP in one cross-compiler
# invocation (see citcat_firmware.cmake for why the libraries are named
# explicitly: the default "." multilib is the ARM-state one) and then
# checks the ELF with check-firmware.sh (no Thumb, no VFP, vectors at 0).

BSP   := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
CROSS ?= arm-none-eabi-
CC    := $(CROSS)gcc
OUT   ?= firmware.elf

ifeq ($(strip $(SRC)),)
$(error set SRC to the program's C/assembly sources, e.g. SRC=myprog.c)
endif

LIBFLAGS := -marm -mfloat-abi=soft --specs=nano.specs
LIBC     := $(shell $(CC) $(LIBFLAGS) -print-file-name=libc_nano.a)
LIBGCC   := $(shell $(CC) $(LIBFLAGS) -print-libgcc-file-name)
CFLAGS   := -mcpu=cortex-a9 -marm -mfloat-abi=soft --specs=nano.specs -O2 -g -std=c11 \
            -Wall -Wextra -ffunction-sections -fdata-sections -fno-common -I$(BSP) $(CFLAGS_EXTRA)
BSP_SRC  := $(BSP)/start.S $(BSP)/crt.c $(BSP)/syscalls.c $(BSP)/citcat_driver.S

$(OUT): $(SRC) $(BSP_SRC) $(BSP)/citcat_target.h $(BSP)/citcat_regs.h $(BSP)/link.ld
	$(CC) $(CFLAGS) $(BSP_SRC) $(SRC) -nostartfiles -nodefaultlibs -T $(BSP)/link.ld \
	    -Wl,--gc-sections -Wl,--start-group $(LIBC) $(LIBGCC) -Wl,--end-group -o $@.tmp
	sh $(BSP)/check-firmware.sh $@.tmp $(CROSS)
	mv $@.tmp $@

.PHONY: clean
clean:
	rm -f $(OUT) $(OUT).tmp
