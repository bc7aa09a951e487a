/*
 * engine_seqread.c: threaded sequential reads of a file (created and
 * filled with the pattern first, possibly larger than RAM) or a block
 * device, each thread on its own slice (until runtime_ms, if given), as in
 * the RAID0 seed's <threads, read KB, readahead> sweep.
 */
#include "engine.h"

static int seqread_prepare(struct point_ctx *ctx)
{
	return engine_fill(ctx, ctx->size);
}

static int seqread_run(struct point_ctx *ctx, struct sample_result *res,
		       int *nr)
{
	if (engine_seq_io(ctx, ENGINE_READ, ctx->size, ctx->gen, &res[0]))
		return -1;
	res[0].metric = "read";
	*nr = 1;
	return 0;
}

const struct engine_ops engine_seqread = {
	.name = "seqread",
	.prepare = seqread_prepare,
	.run_sample = seqread_run,
};
