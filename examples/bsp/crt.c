/*
 * crt.c - the C part of the reset sequence and the IRQ dispatcher.
 */
#include <stdlib.h>

#include "citcat_target.h"

extern int main(void);
extern void __libc_init_array(void);
extern void __libc_fini_array(void);

/* Defined (strongly) by CITCAT_DEFER_TRACE_START in a program that starts
 * tracing itself; a weak undefined reference resolves to address 0. */
extern const unsigned char citcat_defer_trace_start __attribute__((weak));

void citcat_crt_main(void) __attribute__((noreturn));

/* newlib's __libc_init_array/__libc_fini_array call these (normally from
 * crti.o/crtn.o, which are not linked: -nostartfiles). */
void _init(void) {}
void _fini(void) {}

/* C++: static objects register their destructors with __cxa_atexit (in
 * newlib) against this module handle, which crtbegin.o would define. */
void *__dso_handle __attribute__((weak)) = &__dso_handle;

/*
 * Called by _reset in SYS mode with the stacks set and .bss zeroed.
 * Tracing starts right before main() so the trace covers the program, not
 * its C runtime start-up; the run ends with exit(), which flushes stdio and
 * writes the status to SYSCTL EXIT.
 */
void citcat_crt_main(void)
{
    __libc_init_array();        /* preinit_array, _init, init_array */
    atexit(__libc_fini_array);
    if (&citcat_defer_trace_start == 0)
        citcat_trace_start();
    exit(main());
}

/* Default handlers: disable the line so an unexpected interrupt cannot
 * storm, and leave the rest of the program running. */
__attribute__((weak)) void citcat_irq_timer(void) { citcat_irq_disable_line(CITCAT_IRQ_TIMER); }
__attribute__((weak)) void citcat_irq_uart_rx(void) { citcat_irq_disable_line(CITCAT_IRQ_UART_RX); }
__attribute__((weak)) void citcat_irq_dma_done(void) { citcat_irq_disable_line(CITCAT_IRQ_DMA_DONE); }
__attribute__((weak)) void citcat_irq_soft(void) { citcat_irq_disable_line(CITCAT_IRQ_SOFT); }

void citcat_irq_dispatch(void);

/*
 * Serve every pending-and-enabled line, lowest first.  Each line is
 * acknowledged before its handler runs, so an event that arrives while the
 * handler runs latches again and is served by the next pass.
 */
void citcat_irq_dispatch(void)
{
    uint32_t line;

    while ((line = CITCAT_REG(CITCAT_INTC_CLAIM)) != CITCAT_INTC_NONE) {
        citcat_irq_ack(line);
        switch (line) {
        case CITCAT_IRQ_TIMER: citcat_irq_timer(); break;
        case CITCAT_IRQ_UART_RX: citcat_irq_uart_rx(); break;
        case CITCAT_IRQ_DMA_DONE: citcat_irq_dma_done(); break;
        case CITCAT_IRQ_SOFT: citcat_irq_soft(); break;
        default: citcat_irq_disable_line(line); break;
        }
    }
}
