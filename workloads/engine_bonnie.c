/*
 * engine_bonnie.c: bonnie++'s three block columns, one sample each:
 * block write (write(2) of chunk_kb, then fsync), rewrite (read a chunk,
 * change it, lseek back, write it) and block read, as the RAID5 seed
 * compares them. Rewrite changes only the words the pattern check looks
 * at, so it costs about what bonnie++'s one-byte change does.
 */
#include "engine.h"
#include "pattern.h"
#include "report.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int bonnie_prepare(struct point_ctx *ctx)
{
	if (ctx->null)
		return report_error("workload",
				    "'%s' is a null disk: writes "
				    "are dropped",
				    ctx->target);
	if (ctx->layer && engine_writable(ctx, "bonnie"))
		return -1;
	if (ctx->root && ctx->root->busy)
		return report_error("workload",
				    "'%s' holds md metadata or a "
				    "file system; use a file on it",
				    ctx->target);
	return 0;
}

enum phase { WRITE, REWRITE, READ };

static int phase_run(struct point_ctx *ctx, enum phase ph, uint32_t gen,
		     void *buf, struct sample_result *res)
{
	static const char *const metric[] = {"write", "rewrite", "read"};
	int flags = O_CLOEXEC | (ph == WRITE	 ? O_WRONLY
				 : ph == REWRITE ? O_RDWR
						 : O_RDONLY);
	if (ph == WRITE && ctx->is_file)
		flags |= O_CREAT | O_TRUNC;
	uint64_t u0, s0, u1, s1, t0, t1, bad = PATTERN_OK;
	size_t n = (size_t)ctx->bs;
	ssize_t got = 0;
	int fd = open(ctx->path, flags, 0644);
	if (fd < 0)
		return report_error("workload", "cannot open '%s': %s",
				    ctx->path, strerror(errno));
	if (ph == WRITE)
		pattern_fill(buf, n, ctx->base, gen);
	engine_sample_begin(res, &u0, &s0);
	t0 = sys_now_ns();
	for (uint64_t off = 0; off < ctx->size; off += n) {
		uint64_t poff = ctx->base + off;
		if (ph != WRITE) {
			if ((got = read(fd, buf, n)) != (ssize_t)n)
				goto io_error;
			if (bad == PATTERN_OK)
				bad = pattern_check(buf, n, poff,
						    ph == REWRITE ? gen - 1
								  : gen,
						    0, ctx->skip_below);
		}
		if (ph == READ)
			continue;
		pattern_touch(buf, n, poff, gen);
		if (ph == REWRITE && (got = lseek(fd, -(off_t)n, SEEK_CUR)) < 0)
			goto io_error;
		if ((got = write(fd, buf, n)) != (ssize_t)n)
			goto io_error;
	}
	if (ph != READ && (got = fsync(fd)) < 0)
		goto io_error;
	t1 = sys_now_ns();
	engine_sample_end(res, &u1, &s1);
	close(fd);
	if (bad != PATTERN_OK)
		return report_error(
			"verify", "'%s' (%s): bad data at byte %llu", ctx->path,
			metric[ph], (unsigned long long)(bad - ctx->base));
	res->metric = metric[ph];
	res->io_bytes = ctx->size;
	res->runtime_ns = t1 - t0;
	res->usr_ns = u1 - u0;
	res->sys_ns = s1 - s0;
	res->verified = 1; /* write and rewrite are checked by what follows */
	return 0;
io_error:
	if (got < 0)
		report_error("workload", "%s '%s': %s", metric[ph], ctx->path,
			     strerror(errno));
	else
		report_error("workload",
			     "%s '%s': short transfer (%zd of %zu "
			     "bytes; file system full?)",
			     metric[ph], ctx->path, got, n);
	close(fd);
	return -1;
}

static int bonnie_run(struct point_ctx *ctx, struct sample_result *res, int *nr)
{
	void *buf = NULL;
	uint32_t gen = ctx->gen + 1;
	int rc = -1;
	if (posix_memalign(&buf, 4096, (size_t)ctx->bs))
		return report_error("workload", "out of memory");
	if (phase_run(ctx, WRITE, gen, buf, &res[0]))
		goto out;
	engine_wrote(ctx, ctx->size, gen);
	if (engine_drop_caches(ctx) ||
	    phase_run(ctx, REWRITE, gen + 1, buf, &res[1]))
		goto out;
	engine_wrote(ctx, ctx->size, gen + 1);
	if (engine_drop_caches(ctx) ||
	    phase_run(ctx, READ, gen + 1, buf, &res[2]))
		goto out;
	*nr = 3;
	rc = 0;
out:
	free(buf);
	return rc;
}

const struct engine_ops engine_bonnie = {
	.name = "bonnie",
	.prepare = bonnie_prepare,
	.run_sample = bonnie_run,
};
