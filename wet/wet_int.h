/* Internal: constants of the WET file layout (WET.md) shared by the
 * builder and the reader. */
#ifndef CITCAT_WET_INT_H
#define CITCAT_WET_INT_H

#include "wet.h"

#define WET_MAGIC "CITCWET\0"
#define WET_FOOT_MAGIC "CWETEND\0"
#define WET_VERSION 6
#define WET_HDR_LEN 16
#define WET_FOOT_LEN 64
#define WET_SEG_HDR 32                   /* per segment in the index */
#define WET_SEG_STREAM 24                /* per stream of a segment */
#define WET_NODE_MAX_INSNS 1024          /* instructions a node may hold */
#define WET_SEG_DEFAULT (1u << 16)
#define WET_IDX_HDR 32

/* The key of the ORD-th value an instance at PC puts in a stream. */
#define WET_KEY(pc, ord) ((uint32_t)(pc) + 0x01000193u * (uint32_t)(ord))

enum { WET_NODE_BLOCK = 0, WET_NODE_IRQ = 1, WET_NODE_PATH = 2 };

#endif
