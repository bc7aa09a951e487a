/*
 * ksyms.h: a kernel's text symbols, read from its System.map, and the
 * folding of instruction counts at code addresses into the functions
 * that hold them (a profile, measure/profile.h). Pure: text in, tables
 * out. System.map's shape ("ffffffff81000000 T _stext") has not changed
 * since 2.6, so this reads every kernel's.
 */
#ifndef IOBISECT_KSYMS_H
#define IOBISECT_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	char *name;
};

/* Text symbols by address, one per address; `last` closes the last. */
struct ksyms {
	struct ksym *syms;
	size_t nr, alloc;
	/*
	 * The text's last address, inclusive: _etext's less one when the
	 * map has it past the last symbol, else the last symbol's own. Not
	 * one past it: a symbol at ffffffffffffffff has no address after
	 * it, and an end of 0 put every count outside the map.
	 */
	uint64_t last;
};
#define KSYMS_INIT { NULL, 0, 0, 0 }
void ksyms_release(struct ksyms *k);

/*
 * Read a System.map's text (`text` of `len` bytes) into `out`: the text
 * symbols (types t, T, w, W), sorted, one name per address (a global
 * name before a local one, then the first in the file). Lines of other
 * types, and malformed lines, are passed over. 0, or -1 after error()
 * naming `what` when no text symbol is found.
 */
int ksyms_parse(struct ksyms *out, const char *text, size_t len,
		const char *what);

/* The symbol holding `addr`, or NULL when it is outside the text. */
const struct ksym *ksyms_lookup(const struct ksyms *k, uint64_t addr);

/* Instructions counted at one code address (a translation block's). */
struct addr_count {
	uint64_t addr;
	uint64_t insns;
};

/* Instructions of one function, summed. */
struct func_count {
	const char *name; /* the ksyms' own: lives as long as they do */
	uint64_t insns;
};

/*
 * Fold `nr` counts into the functions of `k`: *out (caller frees the
 * array) gets one entry per function with instructions, most first
 * (ties by name), *nr_out their number, and *unknown the instructions
 * at addresses outside the map's text (modules, BPF, trampolines).
 * Sums saturate at UINT64_MAX rather than wrap.
 */
void ksyms_fold(const struct ksyms *k, const struct addr_count *counts,
		size_t nr, struct func_count **out, size_t *nr_out,
		uint64_t *unknown);

#endif
