/*
 * engine.h: workload engines as small ops tables (after fio's
 * ioengine_ops), and the point context they share. An engine prepares its
 * target once per point, then measures one sample per run_sample() call,
 * filling one result per metric (bonnie gives three).
 */
#ifndef IOBISECT_GUEST_ENGINE_H
#define IOBISECT_GUEST_ENGINE_H

#include "counters.h"
#include "layer.h"
#include "spec.h"

#include <stdint.h>

struct fio_dir;

#define ENGINE_MAX_THREADS 64

struct sample_result {
	const char *metric; /* "read", "write", "rewrite" */
	uint64_t io_bytes;
	uint64_t runtime_ns;
	uint64_t usr_ns, sys_ns;
	int verified;
	/* Read as it was on a read-only disk, or a disk with no data: nothing
	 * known to check against. */
	int unchecked;
	/* Ended by the deadline (runtime_ms) before its bytes were done. */
	int stopped;
	/* The block layer's accounting just before and just after. */
	struct counters_snap counters[2];
	/* engine_fio: fio's own figures for this direction, or NULL. */
	const struct fio_dir *fio;
};

/* What one thread of engine_seq_io moved: [from, from + done) of its
 * slice [from, to). done < to - from when the deadline stopped it. */
struct seq_extent {
	uint64_t from, to, done;
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
	int nodata;	     /* reads return no defined data (nullb) */
	int unchecked;	     /* ro and not null, or nodata: reads not checked */
	uint32_t gen;	     /* generation the target holds */

	/* Engine keys, with defaults applied. */
	uint64_t size; /* bytes per sample (and file size) */
	uint64_t bs;   /* bytes per read/write call */
	uint64_t threads;
	uint64_t ra_kb; /* 0: leave readahead alone */
	int direct;
	int fsync;
	enum engine_fadvise fadvise;
	uint64_t runtime_ns; /* time bound of a sample; 0: size alone */
	uint64_t mem_total_kb;

	/* What the last engine_seq_io call moved, one extent per thread. */
	struct seq_extent moved[ENGINE_MAX_THREADS];
	int nr_moved;
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
extern const struct engine_ops engine_fio;

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
 * threads, each on its own slice, in ctx->bs calls, until the slices are
 * done or ctx->runtime_ns has passed (0: no time bound). Reads check the
 * pattern (generation gen) of every byte they read; writes write it. Fills
 * `res` with what was moved (metric left to the caller) and ctx->moved with
 * where. -1 after an error frame (a `verify` error for bad data).
 */
int engine_seq_io(struct point_ctx *ctx, int dir, uint64_t size, uint32_t gen,
		  struct sample_result *res);
/* The bytes from offset 0 that the last engine_seq_io moved without a gap:
 * size when every thread finished its slice. */
uint64_t engine_seq_prefix(const struct point_ctx *ctx);
/* For write engines: -1 after an error frame when the target is read-only. */
int engine_writable(struct point_ctx *ctx, const char *engine);
/* Drop caches before a sample, once the target's device has no request in
 * flight; -1 after an error frame. */
int engine_drop_caches(struct point_ctx *ctx);
/* Read back a 4 KiB block every MiB of what the last engine_seq_io wrote
 * (ctx->moved) and check it; -1 after an error frame. */
int engine_spot_check(struct point_ctx *ctx, uint32_t gen);
/* CPU time of the process so far. */
void engine_cpu(uint64_t *usr_ns, uint64_t *sys_ns);
/*
 * The start and the end of a sample's measured window: the block layer's
 * counters and the CPU time, read outside the time the sample reports.
 * engine_sample_begin clears res.
 */
void engine_sample_begin(struct sample_result *res, uint64_t *usr_ns,
			 uint64_t *sys_ns);
void engine_sample_end(struct sample_result *res, uint64_t *usr_ns,
		       uint64_t *sys_ns);

#endif
