/*
 * dijkstra - single-source shortest paths on a random sparse graph.
 *
 * Exercises: pointer chasing through malloc'ed adjacency lists scattered
 * over the heap (_sbrk), a binary heap with decrease-key, irregular data
 * access; about 90 KiB of graph and heap, so lines are evicted and written
 * back.
 *
 * Self-check: the distances equal those of Bellman-Ford (edge relaxation
 * until nothing changes), and every reachable node's distance is realised by
 * its predecessor edge.  The graph comes from a generator seeded by the
 * entropy register.
 *
 * Tracing starts after the graph is built (CITCAT_DEFER_TRACE_START and an
 * explicit citcat_trace_start()), to show how a program skips its own
 * initialisation: the graph is then part of the initial memory image the
 * trace's first reads reveal.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "citcat_target.h"

#ifndef SCALE
#define SCALE 1
#endif

#define V (1024u * (SCALE))
#define DEG 4u
#define INF 0xFFFFFFFFu

CITCAT_DEFER_TRACE_START; /* the BSP does not start tracing before main */

struct edge {
    struct edge *next;
    uint32_t to, w;
};

struct node {
    struct edge *adj;
    uint32_t dist, pred;
    int32_t heap_pos; /* -1: not in the heap */
};

static struct node *nodes;
static uint32_t *heap; /* node indices */
static uint32_t heap_n;
static uint32_t seed;

static uint32_t rnd(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    return seed;
}

static void heap_place(uint32_t pos, uint32_t v)
{
    heap[pos] = v;
    nodes[v].heap_pos = (int32_t)pos;
}

static void heap_up(uint32_t pos)
{
    uint32_t v = heap[pos];
    while (pos > 0) {
        uint32_t parent = (pos - 1) / 2;
        if (nodes[heap[parent]].dist <= nodes[v].dist)
            break;
        heap_place(pos, heap[parent]);
        pos = parent;
    }
    heap_place(pos, v);
}

static void heap_down(uint32_t pos)
{
    uint32_t v = heap[pos];
    for (;;) {
        uint32_t c = 2 * pos + 1;
        if (c >= heap_n)
            break;
        if (c + 1 < heap_n && nodes[heap[c + 1]].dist < nodes[heap[c]].dist)
            c++;
        if (nodes[heap[c]].dist >= nodes[v].dist)
            break;
        heap_place(pos, heap[c]);
        pos = c;
    }
    heap_place(pos, v);
}

static void dijkstra(uint32_t src)
{
    for (uint32_t i = 0; i < V; i++) {
        nodes[i].dist = INF;
        nodes[i].pred = INF;
        nodes[i].heap_pos = -1;
    }
    nodes[src].dist = 0;
    heap_n = 0;
    heap_place(heap_n++, src);
    while (heap_n) {
        uint32_t u = heap[0];
        nodes[u].heap_pos = -1;
        if (--heap_n) {
            heap_place(0, heap[heap_n]);
            heap_down(0);
        }
        for (struct edge *e = nodes[u].adj; e; e = e->next) {
            uint32_t d = nodes[u].dist + e->w;
            struct node *t = &nodes[e->to];
            if (d < t->dist) {
                t->dist = d;
                t->pred = u;
                if (t->heap_pos < 0)
                    heap_place(heap_n++, e->to);
                heap_up((uint32_t)t->heap_pos);
            }
        }
    }
}

int main(void)
{
    int failed = 0;
    uint32_t nedges = 0;

    seed = citcat_random() | 1u;
    nodes = calloc(V, sizeof *nodes);
    heap = malloc(V * sizeof *heap);
    uint32_t *bf = malloc(V * sizeof *bf);
    if (!nodes || !heap || !bf) {
        printf("dijkstra: out of memory\n");
        return 2;
    }
    /* A ring keeps everything reachable; random chords make it interesting.
     * Edges are allocated one by one, interleaved across nodes, so each
     * list is scattered over the heap. */
    for (uint32_t round = 0; round < DEG; round++)
        for (uint32_t u = 0; u < V; u++) {
            struct edge *e = malloc(sizeof *e);
            if (!e) {
                printf("dijkstra: out of memory\n");
                return 2;
            }
            e->to = round == 0 ? (u + 1) % V : rnd() % V;
            e->w = round == 0 ? 1000u + rnd() % 1000u : 1u + rnd() % 1000u;
            e->next = nodes[u].adj;
            nodes[u].adj = e;
            nedges++;
        }

    citcat_trace_start(); /* the trace start point P is in here */
    dijkstra(0);

    for (uint32_t i = 0; i < V; i++)
        bf[i] = INF;
    bf[0] = 0;
    uint32_t passes = 0;
    for (int changed = 1; changed && passes < V; passes++) {
        changed = 0;
        for (uint32_t u = 0; u < V; u++) {
            if (bf[u] == INF)
                continue;
            for (struct edge *e = nodes[u].adj; e; e = e->next)
                if (bf[u] + e->w < bf[e->to]) {
                    bf[e->to] = bf[u] + e->w;
                    changed = 1;
                }
        }
    }

    uint64_t sum = 0;
    for (uint32_t i = 0; i < V; i++) {
        if (nodes[i].dist != bf[i]) {
            printf("dijkstra: node %lu: %lu != Bellman-Ford %lu\n", (unsigned long)i,
                   (unsigned long)nodes[i].dist, (unsigned long)bf[i]);
            failed = 1;
            break;
        }
        if (i != 0) {
            int ok = 0;
            if (nodes[i].pred < V)
                for (struct edge *e = nodes[nodes[i].pred].adj; e; e = e->next)
                    if (e->to == i && nodes[nodes[i].pred].dist + e->w == nodes[i].dist)
                        ok = 1;
            if (!ok) {
                printf("dijkstra: node %lu: no predecessor edge\n", (unsigned long)i);
                failed = 1;
                break;
            }
        }
        sum += nodes[i].dist;
    }
    printf("dijkstra: %lu nodes %lu edges, %lu Bellman-Ford passes, sum=%lu %s\n", (unsigned long)V,
           (unsigned long)nedges, (unsigned long)passes, (unsigned long)sum, failed ? "FAIL" : "OK");
    return failed;
}
