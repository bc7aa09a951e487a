/*
 * engine_seqwrite.c: threaded sequential writes of the pattern, with the
 * fsync inside the timed part (fsync=1), then an untimed spot check that
 * what was written reads back after the caches are dropped. With
 * runtime_ms, each thread writes the start of its slice until the deadline.
 */
#include "engine.h"
#include "report.h"

#include <unistd.h>

static int seqwrite_prepare(struct point_ctx *ctx)
{
	if (ctx->null)
		return report_error("workload",
				    "'%s' is a null disk: writes "
				    "are dropped",
				    ctx->target);
	if (ctx->layer && engine_writable(ctx, "seqwrite"))
		return -1;
	if (ctx->root && ctx->root->busy)
		return report_error("workload",
				    "'%s' holds md metadata or a "
				    "file system; write to a file instead",
				    ctx->target);
	if (ctx->is_file)
		unlink(ctx->path);
	return 0;
}

static int seqwrite_run(struct point_ctx *ctx, struct sample_result *res,
			int *nr)
{
	uint32_t gen = ctx->gen + 1;
	if (engine_seq_io(ctx, ENGINE_WRITE, ctx->size, gen, &res[0]))
		return -1;
	/*
	 * A sample stopped by its deadline wrote the start of each thread's
	 * slice: the target holds generation gen only up to the first gap,
	 * and only what was written is checked.
	 */
	engine_wrote(ctx, engine_seq_prefix(ctx), gen);
	if (engine_drop_caches(ctx) || engine_spot_check(ctx, gen))
		return -1;
	res[0].metric = "write";
	res[0].verified = 1;
	*nr = 1;
	return 0;
}

const struct engine_ops engine_seqwrite = {
	.name = "seqwrite",
	.prepare = seqwrite_prepare,
	.run_sample = seqwrite_run,
};
