/*
 * tbcount.c: iobisect's QEMU TCG plugin. It counts the guest kernel's
 * instructions per translation block inside the windows the guest marks
 * (proto/profile.h), and writes them, keyed by the block's address, when
 * QEMU exits. `-plugin iobisect-tbcount.so,out=FILE`; `probe=on` only
 * says that it loads and refuses to stay (how the host asks whether this
 * QEMU loads plugins at all).
 *
 * Every block is counted inline (one add of its instruction count at
 * each execution, no call): a window is the difference of the counters
 * at its two marks. Blocks are kept in chunks that never move, since
 * the inline adds hold their addresses, and found by address through an
 * open-addressed table. The plugin API is a C interface that QEMU
 * versions: Debian ships no qemu-plugin.h, so what is used is declared
 * below, as QEMU 7.2's docs/devel/tcg-plugins.rst and its header give it
 * (API version 1), and the version QEMU offers is checked at install.
 */
#include "proto/profile.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the part of QEMU's plugin API this plugin uses (version 1) --- */
#define API_VERSION 1
/*
 * The newest API whose calls below keep these signatures: version 3
 * (QEMU 9.0) made qemu_plugin_insn_data copy into a buffer.
 */
#define API_NEWEST_KNOWN 2
#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op, void *ptr,
					      uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);

EXPORT int qemu_plugin_version = API_VERSION;
EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv);
/* --- end of QEMU's API --- */

#define CHUNK 4096

struct block {
	uint64_t vaddr;
	uint64_t count;	 /* instructions since boot: the inline add's */
	uint64_t base;	 /* count when the open window opened */
	uint64_t window; /* instructions inside closed windows */
};

static struct {
	pthread_mutex_t lock;
	struct block **chunks;
	size_t nr, nr_chunks;
	/* Open addressing: index + 1 into the blocks, 0 empty. */
	uint32_t *slots;
	size_t nr_slots;
	uint64_t user, user_base, user_window;
	unsigned windows;
	int open;
	char *out;
} st = {.lock = PTHREAD_MUTEX_INITIALIZER};

static struct block *block_at(size_t i)
{
	return &st.chunks[i / CHUNK][i % CHUNK];
}

static size_t slot_of(uint64_t vaddr, size_t nr_slots)
{
	/* Fibonacci hashing: blocks are close together, the top bits mix. */
	return (size_t)((vaddr * 0x9e3779b97f4a7c15ull) >> 20) & (nr_slots - 1);
}

static int table_grow(void)
{
	size_t n = st.nr_slots ? st.nr_slots * 2 : 1 << 16;
	uint32_t *s = calloc(n, sizeof(*s));
	if (!s)
		return -1;
	for (size_t i = 0; i < st.nr; i++) {
		size_t k = slot_of(block_at(i)->vaddr, n);
		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = (uint32_t)(i + 1);
	}
	free(st.slots);
	st.slots = s;
	st.nr_slots = n;
	return 0;
}

/* The block at `vaddr`, made when new; NULL when out of memory. */
static struct block *block_get(uint64_t vaddr)
{
	if (st.nr * 2 >= st.nr_slots && table_grow())
		return NULL;
	size_t k = slot_of(vaddr, st.nr_slots);
	for (; st.slots[k]; k = (k + 1) & (st.nr_slots - 1)) {
		struct block *b = block_at(st.slots[k] - 1);
		if (b->vaddr == vaddr)
			return b;
	}
	if (st.nr == st.nr_chunks * CHUNK) {
		struct block **c =
			realloc(st.chunks, (st.nr_chunks + 1) * sizeof(*c));
		if (!c)
			return NULL;
		st.chunks = c;
		if (!(c[st.nr_chunks] = calloc(CHUNK, sizeof(struct block))))
			return NULL;
		st.nr_chunks++;
	}
	struct block *b = block_at(st.nr);
	b->vaddr = vaddr;
	/* A block made inside a window counts from zero, as base says. */
	st.slots[k] = (uint32_t)++st.nr;
	return b;
}

static void mark(unsigned int vcpu, void *userdata)
{
	int open = userdata == (void *)1;
	(void)vcpu;
	pthread_mutex_lock(&st.lock);
	if (open && !st.open) {
		for (size_t i = 0; i < st.nr; i++)
			block_at(i)->base = block_at(i)->count;
		st.user_base = st.user;
		st.open = 1;
	} else if (!open && st.open) {
		for (size_t i = 0; i < st.nr; i++) {
			struct block *b = block_at(i);
			b->window += b->count - b->base;
		}
		st.user_window += st.user - st.user_base;
		st.windows++;
		st.open = 0;
	}
	pthread_mutex_unlock(&st.lock);
}

/* 1 open, 2 close, 0 for any other instruction. */
static int marker_kind(const struct qemu_plugin_insn *insn)
{
	const uint8_t *p = qemu_plugin_insn_data(insn);
	if (qemu_plugin_insn_size(insn) != PROFILE_MARK_LEN || !p ||
	    p[0] != PROFILE_MARK_B0 || p[1] != PROFILE_MARK_B1 ||
	    p[2] != PROFILE_MARK_B2)
		return 0;
	uint32_t disp = (uint32_t)p[3] | (uint32_t)p[4] << 8 |
			(uint32_t)p[5] << 16 | (uint32_t)p[6] << 24;
	return disp == PROFILE_MARK_OPEN    ? 1
	       : disp == PROFILE_MARK_CLOSE ? 2
					    : 0;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	size_t n = qemu_plugin_tb_n_insns(tb);
	(void)id;
	if (!(vaddr >> 63)) {
		/* User space: one counter for all, and the guest's marks. */
		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64, &st.user, n);
		for (size_t i = 0; i < n; i++) {
			struct qemu_plugin_insn *insn =
				qemu_plugin_tb_get_insn(tb, i);
			int kind = marker_kind(insn);
			if (kind)
				qemu_plugin_register_vcpu_insn_exec_cb(
					insn, mark, QEMU_PLUGIN_CB_NO_REGS,
					(void *)(uintptr_t)kind);
		}
		return;
	}
	pthread_mutex_lock(&st.lock);
	struct block *b = block_get(vaddr);
	pthread_mutex_unlock(&st.lock);
	if (b)
		qemu_plugin_register_vcpu_tb_exec_inline(
			tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->count, n);
}

static void write_counts(qemu_plugin_id_t id, void *userdata)
{
	(void)id;
	(void)userdata;
	FILE *f = fopen(st.out, "w");
	if (!f) {
		fprintf(stderr, "iobisect-tbcount: cannot write '%s'\n", st.out);
		return;
	}
	fprintf(f, "%s\nwindows %u\nuser %" PRIu64 "\n", PROFILE_FILE_MAGIC,
		st.windows, st.user_window);
	for (size_t i = 0; i < st.nr; i++) {
		const struct block *b = block_at(i);
		if (b->window)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", b->vaddr,
				b->window);
	}
	if (fclose(f))
		fprintf(stderr, "iobisect-tbcount: cannot write '%s'\n", st.out);
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			char **argv)
{
	int probe = 0;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			st.out = argv[i] + 4;
		else if (!strcmp(argv[i], "probe=on"))
			probe = 1;
		else {
			fprintf(stderr, "iobisect-tbcount: unknown argument '%s'\n",
				argv[i]);
			return -1;
		}
	}
	if (info->version.cur > API_NEWEST_KNOWN) {
		fprintf(stderr,
			"iobisect-tbcount: QEMU's plugin api %d is newer than "
			"the %d to %d this plugin knows\n",
			info->version.cur, API_VERSION, API_NEWEST_KNOWN);
		return -1;
	}
	if (probe) {
		/* Refused on purpose: QEMU exits at once, having loaded it. */
		fprintf(stderr, "%s %d\n", PROFILE_PROBE_WORD,
			info->version.cur);
		return -1;
	}
	if (!st.out || !*st.out) {
		fprintf(stderr, "iobisect-tbcount: no out=FILE\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, write_counts, NULL);
	return 0;
}
