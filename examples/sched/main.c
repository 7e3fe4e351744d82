/*
 * sched - a cooperative scheduler driven by the timer interrupt.
 *
 * Three tasks with periods of 1, 3 and 10 timer ticks.  The timer handler
 * (IRQ mode) releases the tasks that are due; the main loop runs released
 * tasks to completion and sleeps in WFI when none is ready.  The report
 * task defers work to a software interrupt (line 3) that it raises itself.
 *
 * Exercises: timer interrupts arriving at arbitrary points of task code,
 * software interrupts, WFI, the IRQ stack, sensor and timer register reads,
 * UART output from a task.
 *
 * Self-check: every task ran exactly as often as it was released
 * (ticks / period), the soft-interrupt handler ran once per request, and the
 * work task's checksum equals a recomputation done at the end.
 */
#include <stdint.h>
#include <stdio.h>

#include "citcat_target.h"

#define PERIOD_CYCLES 6000u
#define RUN_TICKS 240u

struct task {
    const char *name;
    uint32_t period;   /* in ticks */
    volatile uint32_t released;
    uint32_t runs;
    void (*fn)(void);
};

static uint32_t work_state = 1, work_sum;
static uint32_t sensor_min = 0xFFFFFFFFu, sensor_max;
static volatile uint32_t soft_requests, soft_served;
static volatile uint32_t now_tick;   /* timer TICKS at the last interrupt */
static volatile uint32_t irq_count;

/* A chunk of "real work": 300 steps of an LCG folded into a sum. */
static void task_work(void)
{
    for (int i = 0; i < 300; i++) {
        work_state = work_state * 1664525u + 1013904223u;
        work_sum += work_state >> 16;
    }
}

static void task_sensor(void)
{
    uint32_t s = citcat_sensor();
    if (s < sensor_min)
        sensor_min = s;
    if (s > sensor_max)
        sensor_max = s;
}

static void task_report(void)
{
    soft_requests++;
    citcat_irq_raise(CITCAT_IRQ_SOFT); /* served right away: IRQs are unmasked */
    if (now_tick % 60u == 0)
        printf("sched: tick %lu sensor %lu..%lu\n", (unsigned long)now_tick, (unsigned long)sensor_min,
               (unsigned long)sensor_max);
}

static struct task tasks[] = {
    {"work", 1, 0, 0, task_work},
    {"sensor", 3, 0, 0, task_sensor},
    {"report", 10, 0, 0, task_report},
};
#define NTASKS (sizeof tasks / sizeof tasks[0])

/* Release every task whose period divides one of the ticks that passed
 * since the last interrupt (TICKS counts expiries even if the handler
 * was late, so no release is lost). */
void citcat_irq_timer(void)
{
    uint32_t t = citcat_timer_ticks();
    irq_count++;
    while (now_tick < t && now_tick < RUN_TICKS) {
        now_tick++;
        for (unsigned i = 0; i < NTASKS; i++)
            if (now_tick % tasks[i].period == 0)
                tasks[i].released++;
    }
}

void citcat_irq_soft(void) { soft_served++; }

int main(void)
{
    int failed = 0;

    citcat_irq_enable_line(CITCAT_IRQ_TIMER);
    citcat_irq_enable_line(CITCAT_IRQ_SOFT);
    citcat_timer_start(PERIOD_CYCLES);
    citcat_irq_unmask();

    for (;;) {
        int ran = 0;
        for (unsigned i = 0; i < NTASKS; i++) {
            if (tasks[i].runs < tasks[i].released) { /* released is only ever incremented */
                tasks[i].runs++;
                tasks[i].fn();
                ran = 1;
            }
        }
        if (ran)
            continue;
        citcat_irq_mask();
        int idle = 1;
        for (unsigned i = 0; i < NTASKS; i++)
            if (tasks[i].runs < tasks[i].released)
                idle = 0;
        if (idle && now_tick >= RUN_TICKS) {
            citcat_irq_unmask();
            break;
        }
        if (idle)
            citcat_wfi(); /* a pending tick wakes us even with I = 1 ... */
        citcat_irq_unmask(); /* ... and is served here */
    }
    citcat_timer_stop();
    citcat_irq_mask();
    citcat_irq_disable_line(CITCAT_IRQ_TIMER);

    for (unsigned i = 0; i < NTASKS; i++) {
        uint32_t want = RUN_TICKS / tasks[i].period;
        if (tasks[i].runs != want || tasks[i].released != want) {
            printf("sched: task %s ran %lu times, released %lu, want %lu\n", tasks[i].name,
                   (unsigned long)tasks[i].runs, (unsigned long)tasks[i].released, (unsigned long)want);
            failed = 1;
        }
    }
    if (soft_served != soft_requests) {
        printf("sched: %lu soft interrupts requested, %lu served\n", (unsigned long)soft_requests,
               (unsigned long)soft_served);
        failed = 1;
    }
    uint32_t st = 1, sum = 0;
    for (uint32_t i = 0; i < 300u * tasks[0].runs; i++) {
        st = st * 1664525u + 1013904223u;
        sum += st >> 16;
    }
    if (sum != work_sum) {
        printf("sched: work checksum 0x%08lx, recomputed 0x%08lx\n", (unsigned long)work_sum, (unsigned long)sum);
        failed = 1;
    }
    if (sensor_max > 0xFFFu) {
        printf("sched: sensor reading %lu is not 12-bit\n", (unsigned long)sensor_max);
        failed = 1;
    }
    printf("sched: %lu ticks, %lu timer interrupts, %lu soft interrupts %s\n", (unsigned long)now_tick,
           (unsigned long)irq_count, (unsigned long)soft_served, failed ? "FAIL" : "OK");
    return failed;
}
