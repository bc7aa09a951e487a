/*
 * engine_rawread.c: dd-like reads of a block device, one reader, size_mb
 * per sample (or what runtime_ms leaves time for) in bs_kb calls, as in
 * seed 004 (dd bs=128k vs bs=2M on a disk, a partition, a loop device and
 * dm-linear).
 */
#include "engine.h"
#include "report.h"

static int rawread_prepare(struct point_ctx *ctx)
{
	if (ctx->is_file)
		return report_error("workload",
				    "rawread reads block devices; "
				    "'%s' is a file",
				    ctx->target);
	ctx->threads = 1;
	return engine_fill(ctx, ctx->size);
}

static int rawread_run(struct point_ctx *ctx, struct sample_result *res,
		       int *nr)
{
	if (engine_seq_io(ctx, ENGINE_READ, ctx->size, ctx->gen, &res[0]))
		return -1;
	res[0].metric = "read";
	*nr = 1;
	return 0;
}

const struct engine_ops engine_rawread = {
	.name = "rawread",
	.prepare = rawread_prepare,
	.run_sample = rawread_run,
};
