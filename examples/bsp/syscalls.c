/*
 * syscalls.c - newlib system-call stubs for the modelled target.
 *
 * stdout/stderr go to the UART, stdin comes from UART RX (polled), exit
 * writes the status to SYSCTL EXIT, the heap lies between the end of .bss
 * and the bottom of the stacks (linker script).  There is no file system.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/time.h>

#include "citcat_target.h"

#undef errno
extern int errno;

/* The prototypes newlib expects; declared here because newlib's headers
 * leave most of them to the port. */
int _write(int fd, const void *buf, int len);
int _read(int fd, void *buf, int len);
void _exit(int status) __attribute__((noreturn));
void *_sbrk(ptrdiff_t incr);
int _close(int fd);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _lseek(int fd, int off, int whence);
int _open(const char *path, int flags, int mode);
int _kill(int pid, int sig);
int _getpid(void);
clock_t _times(struct tms *t);
int _gettimeofday(struct timeval *tv, void *tz);
int _link(const char *old, const char *new_path);
int _unlink(const char *path);

int _write(int fd, const void *buf, int len)
{
    const char *p = buf;

    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    for (int i = 0; i < len; i++)
        citcat_uart_putc(p[i]);
    return len;
}

/* Blocks until at least one byte arrived; returns 0 (end of file) once the
 * RX input is exhausted.  Stops at a newline like a terminal would. */
int _read(int fd, void *buf, int len)
{
    char *p = buf;
    int n = 0;

    if (fd != 0) {
        errno = EBADF;
        return -1;
    }
    while (n < len) {
        int c = (n == 0) ? citcat_uart_getc()
                         : ((citcat_uart_status() & CITCAT_UART_ST_RXAVAIL) ? citcat_uart_getc_now() : -1);
        if (c < 0)
            break;
        p[n++] = (char)c;
        if (c == '\n')
            break;
    }
    return n;
}

void _exit(int status)
{
    citcat_exit((uint32_t)status);
}

extern char __heap_start[];
extern char __heap_end[];
static char *heap_brk = __heap_start;

void *_sbrk(ptrdiff_t incr)
{
    char *prev = heap_brk;

    if (incr > __heap_end - heap_brk || incr < __heap_start - heap_brk) {
        errno = ENOMEM;
        return (void *)-1;
    }
    heap_brk += incr;
    return prev;
}

int _close(int fd)
{
    (void)fd;
    return 0;
}

int _fstat(int fd, struct stat *st)
{
    (void)fd;
    st->st_mode = S_IFCHR; /* stdio then line-buffers the UART */
    return 0;
}

int _isatty(int fd) { return fd >= 0 && fd <= 2; }

int _lseek(int fd, int off, int whence)
{
    (void)fd, (void)off, (void)whence;
    return 0;
}

int _open(const char *path, int flags, int mode)
{
    (void)path, (void)flags, (void)mode;
    errno = ENOENT;
    return -1;
}

int _kill(int pid, int sig)
{
    (void)pid;
    /* abort() ends up here: end the run with a status that says so. */
    citcat_exit(128u + (uint32_t)sig);
}

int _getpid(void) { return 1; }

clock_t _times(struct tms *t)
{
    clock_t c = (clock_t)citcat_cycles32();

    if (t) {
        t->tms_utime = c;
        t->tms_stime = 0;
        t->tms_cutime = 0;
        t->tms_cstime = 0;
    }
    return c;
}

/* No wall clock: time is the cycle count, at a nominal 100 MHz. */
int _gettimeofday(struct timeval *tv, void *tz)
{
    (void)tz;
    if (tv) {
        uint64_t c = citcat_cycles();
        tv->tv_sec = (time_t)(c / 100000000u);
        tv->tv_usec = (suseconds_t)((c % 100000000u) / 100u);
    }
    return 0;
}

int _link(const char *old, const char *new_path)
{
    (void)old, (void)new_path;
    errno = EMLINK;
    return -1;
}

int _unlink(const char *path)
{
    (void)path;
    errno = ENOENT;
    return -1;
}
