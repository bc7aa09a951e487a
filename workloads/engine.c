/*
 * engine.c: what the engines share: resolving a point's target, filling it
 * with the pattern, the threaded sequential reader/writer and its time
 * bound, dropping caches, CPU accounting, and the loop over warmups and
 * samples that sends the `point` and `sample` frames.
 */
#include "engine.h"
#include "fio_output.h"
#include "layers.h"
#include "deadline.h"
#include "pattern.h"
#include "report.h"
#include "sys.h"
#include "proto/profile.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FILL_BS (1u << 20)
/* How long engine_drop_caches waits for the target's device to go idle. */
#define IDLE_WAIT_MS 1000

/* Files prepared in this boot, so later points reuse them. */
static struct prepared {
	char path[256];
	uint64_t size;
	uint32_t gen;
} files[32];
static int nr_files;

static struct prepared *file_state(const char *path)
{
	for (int i = 0; i < nr_files; i++)
		if (!strcmp(files[i].path, path))
			return &files[i];
	if (nr_files == 32)
		return NULL;
	struct prepared *p = &files[nr_files++];
	snprintf(p->path, sizeof(p->path), "%s", path);
	p->size = 0;
	p->gen = 0;
	return p;
}

void engine_cpu(uint64_t *usr_ns, uint64_t *sys_ns)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	*usr_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull +
		  (uint64_t)ru.ru_utime.tv_usec * 1000ull;
	*sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull +
		  (uint64_t)ru.ru_stime.tv_usec * 1000ull;
}

/*
 * Whether the sample under way is measured (not a warmup): only those
 * open a profile's window (proto/profile.h).
 */
static int measured;

/*
 * The profile's marks: NOPs that a profiling QEMU plugin recognizes by
 * their displacement. Two separate statements, as the displacement must
 * be a literal in the instruction.
 */
#define STR_(x) #x
#define STR(x) STR_(x)
static void mark_open(void)
{
	if (measured)
		__asm__ volatile("nopl " STR(PROFILE_MARK_OPEN) "(%%rax)" ::
					 : "memory");
}

static void mark_close(void)
{
	if (measured)
		__asm__ volatile("nopl " STR(PROFILE_MARK_CLOSE) "(%%rax)" ::
					 : "memory");
}

void engine_sample_begin(struct sample_result *res, uint64_t *usr_ns,
			 uint64_t *sys_ns)
{
	memset(res, 0, sizeof(*res));
	counters_take(&res->counters[0]);
	engine_cpu(usr_ns, sys_ns);
	mark_open();
}

void engine_sample_end(struct sample_result *res, uint64_t *usr_ns,
		       uint64_t *sys_ns)
{
	mark_close();
	engine_cpu(usr_ns, sys_ns);
	counters_take(&res->counters[1]);
}

/*
 * Wait until the device under the target has no request in flight, or
 * IDLE_WAIT_MS. A buffered sample stopped by its deadline leaves the
 * readahead it started in flight past the point where it stopped, and
 * drop_caches skips pages still locked for I/O: those would reach the page
 * cache after the drop, and the next sample would read them for free.
 * Kernels without the sysfs stat file (before 2.6.27) are not waited for.
 */
static void wait_idle(const struct point_ctx *ctx)
{
	const struct timespec ms = {0, 1000000};
	unsigned long n;
	if (!ctx->blkdev[0])
		return;
	for (int i = 0; i < IDLE_WAIT_MS; i++) {
		if (sys_blk_in_flight(ctx->blkdev, &n) < 0 || n == 0)
			return;
		nanosleep(&ms, NULL);
	}
}

int engine_drop_caches(struct point_ctx *ctx)
{
	wait_idle(ctx);
	if (sys_drop_caches(ctx->blkdev[0] ? ctx->blkdev : NULL) < 0)
		return report_error("workload", "cannot drop caches: %s",
				    strerror(errno));
	return 0;
}

static void *aligned_buf(size_t size)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, size))
		return NULL;
	return p;
}

/* Write the full pattern over [from, to) of path, in pattern offsets
 * shifted by `base`. Untimed. */
static int fill_range(const char *path, int create, uint64_t from, uint64_t to,
		      uint64_t base, uint32_t gen)
{
	int fd =
		open(path, O_WRONLY | O_CLOEXEC | (create ? O_CREAT : 0), 0644);
	void *buf = aligned_buf(FILL_BS);
	int rc = -1;
	if (fd < 0 || !buf) {
		report_error("workload", "cannot open '%s' to fill it: %s",
			     path, strerror(errno));
		goto out;
	}
	say("filling %s: %llu MiB", path,
	    (unsigned long long)((to - from) >> 20));
	for (uint64_t off = from; off < to; off += FILL_BS) {
		size_t n = to - off < FILL_BS ? (size_t)(to - off) : FILL_BS;
		pattern_fill(buf, n, base + off, gen);
		if (pwrite(fd, buf, n, (off_t)off) != (ssize_t)n) {
			report_error("workload",
				     "cannot write '%s' at %llu: %s", path,
				     (unsigned long long)off, strerror(errno));
			goto out;
		}
	}
	if (fsync(fd) < 0) {
		report_error("workload", "fsync '%s': %s", path,
			     strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

int engine_fill(struct point_ctx *ctx, uint64_t size)
{
	if (ctx->is_file) {
		struct prepared *p = file_state(ctx->path);
		struct stat st;
		if (!p)
			return report_error("workload", "too many files");
		if (p->size >= size && stat(ctx->path, &st) == 0 &&
		    (uint64_t)st.st_size >= size) {
			ctx->gen = p->gen;
			return 0;
		}
		unlink(ctx->path);
		if (fill_range(ctx->path, 1, 0, size, 0, 0))
			return -1;
		p->size = size;
		p->gen = ctx->gen = 0;
		return 0;
	}
	if (ctx->null)
		return 0;
	/*
	 * A read-only disk is read as it is: its contents are whatever the
	 * host holds, so there is no pattern to write or to check.
	 */
	if (ctx->ro) {
		ctx->gen = 0;
		return 0;
	}
	struct layer *r = ctx->root;
	uint64_t need = ctx->base + size;
	if (r->filled >= need) {
		ctx->gen = r->gen;
		return 0;
	}
	if (r->busy)
		return report_error("workload",
				    "target '%s' sits on '%s', which "
				    "holds md metadata or a file system: no "
				    "pattern can be written there",
				    ctx->target, r->name);
	/* Continue a fill of the same generation, or start again. */
	uint64_t from = r->gen == 0 ? r->filled : 0;
	if (fill_range(r->path, 0, from, need, 0, 0))
		return -1;
	if (r->has_mbr) {
		/* The fill went over the partition table: put it back. */
		int fd = open(r->path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || pwrite(fd, r->mbr, 512, 0) != 512 || fsync(fd)) {
			if (fd >= 0)
				close(fd);
			return report_error("workload",
					    "cannot restore the "
					    "partition table of '%s': %s",
					    r->path, strerror(errno));
		}
		close(fd);
	}
	r->filled = need;
	r->gen = ctx->gen = 0;
	return 0;
}

int engine_writable(struct point_ctx *ctx, const char *engine)
{
	if (!ctx->ro)
		return 0;
	return report_error("workload",
			    "disk '%s' is read-only: point '%s' (%s) would "
			    "write to '%s'",
			    ctx->root->name, ctx->id, engine, ctx->target);
}

void engine_wrote(struct point_ctx *ctx, uint64_t size, uint32_t gen)
{
	ctx->gen = gen;
	if (ctx->is_file) {
		struct prepared *p = file_state(ctx->path);
		if (p) {
			p->size = size;
			p->gen = gen;
		}
		return;
	}
	/* Only a write from the root's start leaves one clean extent. */
	ctx->root->filled = ctx->base == 0 ? size : 0;
	ctx->root->gen = gen;
}

struct worker {
	struct point_ctx *ctx;
	pthread_barrier_t *go;
	struct deadline *deadline;
	int dir;
	uint32_t gen;
	uint64_t from, to;
	int fd;
	void *buf;
	char err[640];
	uint64_t bad; /* PATTERN_OK, or the offset of bad data */
	uint64_t done;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	struct point_ctx *c = w->ctx;
	pthread_barrier_wait(w->go);
	for (uint64_t off = w->from; off < w->to; off += c->bs) {
		size_t n = w->to - off < c->bs ? (size_t)(w->to - off)
					       : (size_t)c->bs;
		ssize_t got;
		if (deadline_stops(w->deadline, w->done))
			break;
		if (w->dir == ENGINE_WRITE) {
			pattern_touch(w->buf, n, c->base + off, w->gen);
			got = pwrite(w->fd, w->buf, n, (off_t)off);
		} else {
			got = pread(w->fd, w->buf, n, (off_t)off);
		}
		if (got != (ssize_t)n) {
			snprintf(w->err, sizeof(w->err), "%s '%s' at %llu: %s",
				 w->dir ? "write" : "read", c->path,
				 (unsigned long long)off,
				 got < 0 ? strerror(errno) : "short transfer");
			break;
		}
		if (w->dir == ENGINE_READ && !c->unchecked &&
		    w->bad == PATTERN_OK) {
			uint64_t bad =
				pattern_check(w->buf, n, c->base + off, w->gen,
					      c->null, c->skip_below);
			if (bad != PATTERN_OK)
				w->bad = bad - c->base;
		}
		w->done += n;
	}
	/* What was written before the deadline is synced inside the time. */
	if (!w->err[0] && w->dir == ENGINE_WRITE && c->fsync &&
	    fsync(w->fd) < 0)
		snprintf(w->err, sizeof(w->err), "fsync '%s': %s", c->path,
			 strerror(errno));
	deadline_done(w->deadline);
	return NULL;
}

int engine_seq_io(struct point_ctx *ctx, int dir, uint64_t size, uint32_t gen,
		  struct sample_result *res)
{
	static struct worker ws[ENGINE_MAX_THREADS];
	pthread_t tids[ENGINE_MAX_THREADS];
	pthread_barrier_t go;
	struct deadline dl;
	int n = (int)ctx->threads, started = 0, rc = -1;
	uint64_t u0, s0, u1, s1, t0, t1;
	int flags = O_CLOEXEC | (ctx->direct ? O_DIRECT : 0) |
		    (dir == ENGINE_WRITE ? O_WRONLY : O_RDONLY) |
		    (dir == ENGINE_WRITE && ctx->is_file ? O_CREAT : 0);
	static const int advice[] = {0, POSIX_FADV_SEQUENTIAL,
				     POSIX_FADV_NOREUSE, POSIX_FADV_DONTNEED};

	/* Slices are whole multiples of bs, so O_DIRECT stays aligned. */
	uint64_t per = size / (uint64_t)n / ctx->bs * ctx->bs;
	if (per == 0)
		return report_error("workload",
				    "point '%s': %llu bytes cannot "
				    "be split into %d slices of %llu-byte "
				    "calls",
				    ctx->id, (unsigned long long)size, n,
				    (unsigned long long)ctx->bs);
	memset(ws, 0, sizeof(ws));
	ctx->nr_moved = 0;
	if (deadline_init(&dl, n, ctx->runtime_ns) < 0)
		return report_error("workload", "cannot set up a deadline: %s",
				    strerror(errno));
	for (int i = 0; i < n; i++) {
		struct worker *w = &ws[i];
		w->ctx = ctx;
		w->go = &go;
		w->deadline = &dl;
		w->dir = dir;
		w->gen = gen;
		w->from = per * (uint64_t)i;
		w->to = i == n - 1 ? size : w->from + per;
		w->bad = PATTERN_OK;
		w->fd = open(ctx->path, flags, 0644);
		w->buf = aligned_buf(ctx->bs);
		if (w->fd < 0 || !w->buf) {
			report_error("workload", "cannot open '%s': %s",
				     ctx->path, strerror(errno));
			goto out;
		}
		if (dir == ENGINE_WRITE)
			pattern_fill(w->buf, ctx->bs, ctx->base + w->from, gen);
		if (ctx->fadvise &&
		    (errno = posix_fadvise(w->fd, (off_t)w->from,
					   (off_t)(w->to - w->from),
					   advice[ctx->fadvise])) != 0)
			say("posix_fadvise '%s': %s", ctx->path,
			    strerror(errno));
	}
	pthread_barrier_init(&go, NULL, (unsigned)n + 1);
	for (; started < n; started++)
		if ((errno = pthread_create(&tids[started], NULL, worker_run,
					    &ws[started])) != 0) {
			report_error("workload", "cannot start a thread: %s",
				     strerror(errno));
			/* Release the ones waiting at the barrier: none can
			 * pass it now, so exit instead of hanging. */
			return -1;
		}
	engine_sample_begin(res, &u0, &s0);
	pthread_barrier_wait(&go);
	t0 = sys_now_ns();
	deadline_wait(&dl, t0);
	for (int i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	t1 = sys_now_ns();
	engine_sample_end(res, &u1, &s1);
	pthread_barrier_destroy(&go);

	res->runtime_ns = t1 - t0;
	res->usr_ns = u1 - u0;
	res->sys_ns = s1 - s0;
	res->verified = dir == ENGINE_READ;
	res->unchecked = dir == ENGINE_READ && ctx->unchecked;
	for (int i = 0; i < n; i++) {
		res->io_bytes += ws[i].done;
		ctx->moved[i] =
			(struct seq_extent){ws[i].from, ws[i].to, ws[i].done};
		ctx->nr_moved = i + 1;
		if (ws[i].err[0]) {
			report_error("workload", "%s", ws[i].err);
			goto out;
		}
		if (ws[i].bad != PATTERN_OK) {
			report_error("verify",
				     "'%s': bad data at byte %llu "
				     "(expected %s)",
				     ctx->path, (unsigned long long)ws[i].bad,
				     ctx->null ? "zeroes" : "the pattern");
			goto out;
		}
	}
	res->stopped = res->io_bytes < size;
	rc = 0;
out:
	for (int i = 0; i < n; i++) {
		if (ws[i].fd > 0)
			close(ws[i].fd);
		free(ws[i].buf);
		ws[i].fd = -1;
		ws[i].buf = NULL;
	}
	deadline_release(&dl);
	return rc;
}

uint64_t engine_seq_prefix(const struct point_ctx *ctx)
{
	uint64_t end = 0;
	for (int i = 0; i < ctx->nr_moved; i++) {
		const struct seq_extent *e = &ctx->moved[i];
		if (e->from != end)
			break;
		end = e->from + e->done;
		if (e->done < e->to - e->from)
			break;
	}
	return end;
}

/* Check 4 KiB every MiB of [from, end): what one thread wrote. */
static int spot_check_extent(struct point_ctx *ctx, int fd, uint64_t from,
			     uint64_t end, uint32_t gen)
{
	static unsigned char buf[4096];
	for (uint64_t off = from; off + sizeof(buf) <= end; off += 1u << 20) {
		if (pread(fd, buf, sizeof(buf), (off_t)off) != sizeof(buf))
			return report_error("verify",
					    "cannot read '%s' at "
					    "%llu: %s",
					    ctx->path, (unsigned long long)off,
					    strerror(errno));
		uint64_t bad = pattern_check(buf, sizeof(buf), ctx->base + off,
					     gen, 0, ctx->skip_below);
		if (bad != PATTERN_OK)
			return report_error(
				"verify",
				"'%s': data written is "
				"not read back at byte %llu",
				ctx->path,
				(unsigned long long)(bad - ctx->base));
	}
	return 0;
}

int engine_spot_check(struct point_ctx *ctx, uint32_t gen)
{
	int fd = open(ctx->path, O_RDONLY | O_CLOEXEC), rc = 0;
	if (fd < 0)
		return report_error("verify", "cannot open '%s': %s", ctx->path,
				    strerror(errno));
	for (int i = 0; i < ctx->nr_moved && !rc; i++)
		rc = spot_check_extent(ctx, fd, ctx->moved[i].from,
				       ctx->moved[i].from + ctx->moved[i].done,
				       gen);
	close(fd);
	return rc;
}

static const struct engine_ops *const all_engines[] = {
	&engine_seqread, &engine_seqwrite, &engine_rawread, &engine_bonnie,
	&engine_fio};

/* Resolve target=: a file path (starts with '/') or a block layer. */
static int resolve_target(struct point_ctx *ctx)
{
	if (ctx->target[0] == '/') {
		char dir[256], name[32];
		snprintf(ctx->path, sizeof(ctx->path), "%s", ctx->target);
		snprintf(dir, sizeof(dir), "%s", ctx->target);
		*strrchr(dir, '/') = '\0';
		ctx->is_file = 1;
		if (sys_blk_name(dir[0] ? dir : "/", name, sizeof(name)) == 0)
			sys_blk_node(name, ctx->blkdev, sizeof(ctx->blkdev));
		return 0;
	}
	struct layer *l = layer_find(ctx->target);
	if (!l)
		return report_error("workload", "point '%s': no layer '%s'",
				    ctx->id, ctx->target);
	if (!strcmp(l->kind, "fs"))
		return report_error("workload",
				    "point '%s': '%s' is a file "
				    "system; name a file under '%s'",
				    ctx->id, l->name, l->mount);
	ctx->layer = l;
	ctx->root = &layers[l->root];
	ctx->base = l->base;
	ctx->null = l->null;
	ctx->ro = l->ro;
	ctx->unchecked = (l->ro && !l->null) || l->nodata;
	ctx->nodata = l->nodata;
	ctx->skip_below = ctx->root->has_mbr ? 512 : 0;
	snprintf(ctx->path, sizeof(ctx->path), "%s", l->path);
	snprintf(ctx->blkdev, sizeof(ctx->blkdev), "%s", l->path);
	return 0;
}

static int parse_keys(struct point_ctx *ctx, const char *engine)
{
	const struct spec_line *l = ctx->line;
	uint64_t size_mb, bs_kb, direct, fsync_, chunk_kb, runtime_ms;
	double ram_x;
	const char *fadv = spec_get(l, "fadvise");
	int bonnie = !strcmp(engine, "bonnie");

	if (spec_u64(l, "threads", 1, &ctx->threads) ||
	    spec_u64(l, "bs_kb", 1024, &bs_kb) ||
	    spec_u64(l, "chunk_kb", 8, &chunk_kb) ||
	    spec_u64(l, "ra_kb", 0, &ctx->ra_kb) ||
	    spec_u64(l, "size_mb", 0, &size_mb) ||
	    spec_u64(l, "direct", 0, &direct) ||
	    spec_u64(l, "fsync", 1, &fsync_) ||
	    spec_u64(l, "runtime_ms", 0, &runtime_ms) ||
	    spec_double(l, "ram_x", 0, &ram_x))
		return -1;
	ctx->bs = (bonnie ? chunk_kb : bs_kb) * 1024;
	ctx->direct = direct != 0;
	ctx->fsync = fsync_ != 0;
	if (runtime_ms > UINT64_MAX / 1000000)
		return report_error("spec", "line %d: runtime_ms is too large",
				    l->lineno);
	ctx->runtime_ns = runtime_ms * 1000000;
	if (ctx->threads < 1 || ctx->threads > ENGINE_MAX_THREADS)
		return report_error("spec", "line %d: threads must be 1..%d",
				    l->lineno, ENGINE_MAX_THREADS);
	if (ctx->bs == 0 || ctx->bs > (64u << 20) || ctx->bs % 512)
		return report_error("spec",
				    "line %d: the block size must be a "
				    "multiple of 512 bytes up to 64 MiB",
				    l->lineno);
	if (!fadv || !strcmp(fadv, "none"))
		ctx->fadvise = FADV_NONE_;
	else if (!strcmp(fadv, "sequential"))
		ctx->fadvise = FADV_SEQUENTIAL_;
	else if (!strcmp(fadv, "noreuse"))
		ctx->fadvise = FADV_NOREUSE_;
	else if (!strcmp(fadv, "dontneed"))
		ctx->fadvise = FADV_DONTNEED_;
	else
		return report_error("spec", "line %d: unknown fadvise '%s'",
				    l->lineno, fadv);
	if (ram_x > 0)
		ctx->size =
			(uint64_t)(ram_x * (double)ctx->mem_total_kb) * 1024 >>
			20 << 20;
	else
		ctx->size = size_mb << 20;
	if (ctx->size == 0 && ctx->layer &&
	    sys_blk_size(ctx->path, &ctx->size) < 0)
		return report_error("workload",
				    "cannot get the size of '%s': "
				    "%s",
				    ctx->path, strerror(errno));
	if (ctx->size == 0)
		return report_error("spec",
				    "line %d: point '%s' needs size_mb "
				    "or ram_x",
				    l->lineno, ctx->id);
	ctx->size -= ctx->size % ctx->bs;
	if (ctx->layer) {
		uint64_t dev = 0;
		if (sys_blk_size(ctx->path, &dev) == 0 && ctx->size > dev)
			return report_error("workload",
					    "point '%s': %llu bytes "
					    "do not fit '%s' (%llu bytes)",
					    ctx->id,
					    (unsigned long long)ctx->size,
					    ctx->path, (unsigned long long)dev);
	}
	return 0;
}

static int send_sample(struct point_ctx *ctx, const struct sample_result *r,
		       int index, int warmup)
{
	static struct json j;
	uint64_t rt = r->runtime_ns ? r->runtime_ns : 1;
	double bw = (double)r->io_bytes * 1e9 / (double)rt;
	json_begin(&j, "sample");
	json_str(&j, "point", ctx->id);
	json_i64(&j, "index", index);
	json_bool(&j, "warmup", warmup);
	json_str(&j, "metric", r->metric);
	json_u64(&j, "io_bytes", r->io_bytes);
	json_u64(&j, "runtime_ns", r->runtime_ns);
	json_u64(&j, "bw_bytes", (uint64_t)bw);
	json_u64(&j, "usr_ns", r->usr_ns);
	json_u64(&j, "sys_ns", r->sys_ns);
	json_double(&j, "cpu_pct",
		    100.0 * (double)(r->usr_ns + r->sys_ns) / (double)rt);
	/*
	 * verified stays true for a read-only disk (its bytes were read in
	 * full and nothing contradicts them), so results keep the sample;
	 * verify says that no pattern was compared.
	 */
	json_bool(&j, "verified", r->verified);
	if (r->unchecked)
		json_str(&j, "verify",
			 ctx->nodata ? "skipped-nodata" : "skipped-readonly");
	else if (r->fio)
		json_str(&j, "verify", "skipped-fio");
	if (r->fio)
		fio_output_json(&j, r->fio);
	counters_json(&j, &r->counters[0], &r->counters[1]);
	json_end(&j);
	say("%s %s%s %d: %.1f MB/s%s%s", ctx->id, r->metric,
	    warmup ? " (warmup)" : "", index, bw / 1e6,
	    r->stopped ? " (deadline)" : "",
	    !r->unchecked ? ""
	    : ctx->nodata ? " (no data to check)"
			  : " (read-only: not checked)");
	return report_frame(&j);
}

int engine_run_point(const struct spec_line *line, uint64_t mem_total_kb)
{
	static struct point_ctx ctx;
	const char *engine = spec_get(line, "engine");
	const struct engine_ops *ops = NULL;
	uint64_t samples, warmup;
	unsigned long ra = 0;
	int rc = -1;

	memset(&ctx, 0, sizeof(ctx));
	ctx.line = line;
	ctx.id = spec_name(line);
	ctx.target = spec_get(line, "target");
	ctx.mem_total_kb = mem_total_kb;
	for (size_t i = 0; i < sizeof(all_engines) / sizeof(*all_engines); i++)
		if (!strcmp(all_engines[i]->name, engine))
			ops = all_engines[i];
	if (!ops)
		return report_error("spec", "unknown engine '%s'", engine);
	if (spec_u64(line, "samples", 5, &samples) ||
	    spec_u64(line, "warmup", 0, &warmup) || resolve_target(&ctx) ||
	    parse_keys(&ctx, engine))
		return -1;
	if (ctx.ra_kb && ctx.blkdev[0] && sys_ra_set(ctx.blkdev, ctx.ra_kb) < 0)
		return report_error("workload", "BLKRASET %llu KiB on '%s': %s",
				    (unsigned long long)ctx.ra_kb, ctx.blkdev,
				    strerror(errno));
	if (ops->prepare && ops->prepare(&ctx))
		goto out;

	static struct json j;
	json_begin(&j, "point");
	json_str(&j, "id", ctx.id);
	json_str(&j, "engine", engine);
	json_str(&j, "target", ctx.target);
	json_str(&j, "path", ctx.path);
	json_u64(&j, "file_size_bytes", ctx.size);
	json_u64(&j, "mem_total_kb", mem_total_kb);
	if (ctx.blkdev[0] && sys_ra_get(ctx.blkdev, &ra) == 0)
		json_u64(&j, "ra_kb", ra);
	json_end(&j);
	if (report_frame(&j))
		goto out;

	for (uint64_t k = 0; k < warmup + samples; k++) {
		/* Static: each result holds two readings of every device. */
		static struct sample_result res[3];
		int nr = 0;
		int is_warmup = k < warmup;
		measured = !is_warmup;
		md_wait_bitmaps_clean();
		if (engine_drop_caches(&ctx) || ops->run_sample(&ctx, res, &nr))
			goto out;
		for (int m = 0; m < nr; m++)
			if (send_sample(&ctx, &res[m],
					(int)(is_warmup ? k : k - warmup),
					is_warmup))
				goto out;
	}
	rc = 0;
out:
	if (ops->cleanup)
		ops->cleanup(&ctx);
	return rc;
}
