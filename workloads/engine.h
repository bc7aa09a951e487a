/*
 * engine.h: workload engines as small ops tables (after fio's
 * ioengine_ops), and the point context they share. An engine prepares its
 * target once per point, then measures one sample per run_sample() call,
 * filling one result per metric (bonnie gives three).
 */
#ifndef IOBISECT_GUEST_ENGINE_H
#define IOBISECT_GUEST_ENGINE_H

#include "layers.h"
#include "spec.h"

#include <stdint.h>

struct sample_result {
	const char *metric; /* "read", "write", "rewrite" */
	uint64_t io_bytes;
	uint64_t runtime_ns;
	uint64_t usr_ns, sys_ns;
	int verified;
	/* Read as it was on a read-only disk: nothing known to check against. */
	int unchecked;
};

enum engine_fadvise {
	FADV_NONE_ = 0,
	FADV_SEQUENTIAL_,
	FADV_NOREUSE_,
	FADV_DONTNEED_,
};

struct point_ctx {
	const struct spec_line *line;
	const char *id;
	const char *target; /* as the spec names it */
	char path[256];	    /* the file or block device opened */
	int is_file;
	struct layer *layer; /* block targets */
	struct layer *root;  /* block targets: where the pattern state lives */
	char blkdev[64];     /* device for BLKRASET and BLKFLSBUF */
	uint64_t base;	     /* pattern offset of the target's byte 0 */
	uint64_t skip_below; /* pattern offsets not checked (partition table) */
	int null;	     /* reads zeroes */
	int ro;		     /* on a read-only disk: never filled or written */
	int unchecked;	     /* ro and not null: data read is not checked */
	uint32_t gen;	     /* generation the target holds */

	/* Engine keys, with defaults applied. */
	uint64_t size; /* bytes per sample (and file size) */
	uint64_t bs;   /* bytes per read/write call */
	uint64_t threads;
	uint64_t ra_kb; /* 0: leave readahead alone */
	int direct;
	int fsync;
	enum engine_fadvise fadvise;
	uint64_t mem_total_kb;
};

struct engine_ops {
	const char *name;
	int (*prepare)(struct point_ctx *ctx);
	/* Fill res[0..*nr); -1 after an error frame. */
	int (*run_sample)(struct point_ctx *ctx, struct sample_result *res,
			  int *nr);
	void (*cleanup)(struct point_ctx *ctx);
};

extern const struct engine_ops engine_seqread;
extern const struct engine_ops engine_seqwrite;
extern const struct engine_ops engine_rawread;
extern const struct engine_ops engine_bonnie;

/* Run one spec point: `point` frame, warmups, samples. -1 on error. */
int engine_run_point(const struct spec_line *line, uint64_t mem_total_kb);

/* Shared by the engines (engine.c). */

/* Make the target hold the pattern over [0, size): fill a file or the
 * target's root device; a read-only target is left as it is. stage
 * "workload". */
int engine_fill(struct point_ctx *ctx, uint64_t size);
/* Record that [0, size) of the target now holds generation gen. */
void engine_wrote(struct point_ctx *ctx, uint64_t size, uint32_t gen);

enum { ENGINE_READ = 0, ENGINE_WRITE = 1 };
/*
 * Timed sequential I/O over [0, size) of the target with ctx->threads
 * threads, each on its own slice, in ctx->bs calls. Reads check the
 * pattern (generation gen); writes write it. Fills `res` (metric left to
 * the caller). -1 after an error frame (a `verify` error for bad data).
 */
int engine_seq_io(struct point_ctx *ctx, int dir, uint64_t size, uint32_t gen,
		  struct sample_result *res);
/* For write engines: -1 after an error frame when the target is read-only. */
int engine_writable(struct point_ctx *ctx, const char *engine);
/* Drop caches before a sample; -1 after an error frame. */
int engine_drop_caches(struct point_ctx *ctx);
/* Read back a 4 KiB block every MiB and check it; -1 after an error. */
int engine_spot_check(struct point_ctx *ctx, uint64_t size, uint32_t gen);
/* CPU time of the process so far. */
void engine_cpu(uint64_t *usr_ns, uint64_t *sys_ns);

#endif
