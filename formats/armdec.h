/* The one ARM A32 decoder of citcat: a Capstone handle (operand details on)
 * and the control-flow classifier, shared by the text listing, the SDC-LSP
 * encoder and decoder, the replay divergence report and the ChampSim export.
 * Internal module: it works by value, so users embed it.  Not thread-safe:
 * one per user. */
#ifndef CITCAT_ARMDEC_H
#define CITCAT_ARMDEC_H

#include <capstone/capstone.h>
#include <stddef.h>
#include <stdint.h>

struct armdec {
	csh cs;
	int open;
	cs_insn *insn; /* reused by every decode */
	csh cst;       /* the same in Thumb mode (issue 11) */
	int open_t;
	cs_insn *insn_t;
};

/* 0, CITCAT_ERR_UNSUPPORTED (this Capstone has no ARM) or CITCAT_ERR_NOMEM. */
int armdec_init(struct armdec *d);
/* Accepts a zeroed or finished decoder. */
void armdec_fini(struct armdec *d);

/* Decodes WORD at PC.  Returns the instruction (valid until the next call on
 * D) or NULL when Capstone does not decode it. */
const cs_insn *armdec_decode(struct armdec *d, uint32_t pc, uint32_t word);
/* The same for an instruction of SIZE bytes (2 or 4) in Thumb state when
 * THUMB, as the itrace records it (WORD: its bytes as a little-endian
 * number, ITRACE.md); THUMB = 0 is armdec_decode. */
const cs_insn *armdec_decode_isa(struct armdec *d, uint32_t pc, uint32_t word, unsigned size, int thumb);

/* How an instruction leaves the straight line (SDCLSP.md, "Classification"). */
enum armdec_flow {
	ARMDEC_PLAIN = 0,   /* does not write the PC (or is not decoded): continues at pc + 4 */
	ARMDEC_DIRECT_U,    /* B/BL without a condition: to TARGET */
	ARMDEC_DIRECT_C,    /* B/BL with a condition: to TARGET when taken */
	ARMDEC_INDIRECT,    /* any other PC write: BX, returns, loads and data processing into PC */
	ARMDEC_THUMB,       /* BLX imm: switches state (ARM to Thumb, or Thumb to ARM); to TARGET */
};

#define ARMDEC_MAX_REGS 20

struct armdec_class {
	uint8_t decoded;  /* 0: Capstone does not decode it (then flow = PLAIN, nothing else set) */
	uint8_t flow;     /* enum armdec_flow */
	uint8_t cond;     /* executes under a condition other than AL */
	uint8_t link;     /* a call: BL, BLX (writes the return address to LR) */
	uint8_t exc_ret;  /* writes CPSR from SPSR with the PC (SUBS/MOVS PC, LDM ... {pc}^) */
	uint8_t ret;      /* a return: BX LR, MOV PC, LR, or the PC loaded from the stack with SP written back (POP) */
	uint32_t target;  /* DIRECT_*: the branch target */
	uint8_t nrd, nwr; /* Capstone ARM register ids read / written, implicit ones included */
	uint16_t rd[ARMDEC_MAX_REGS], wr[ARMDEC_MAX_REGS];
};

/* Classifies WORD at PC into *C; returns C->decoded. */
int armdec_classify(struct armdec *d, uint32_t pc, uint32_t word, struct armdec_class *c);
/* The same for an instruction of SIZE bytes in Thumb state when THUMB.  In
 * Thumb state CBZ/CBNZ are DIRECT_C; an instruction's IT condition is not
 * known from its word alone, so COND says only what the encoding says. */
int armdec_classify_isa(struct armdec *d, uint32_t pc, uint32_t word, unsigned size, int thumb,
			struct armdec_class *c);

#endif
