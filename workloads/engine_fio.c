/*
 * engine_fio.c: Debian's fio, packed into the initramfs by the harness,
 * runs the point's job file on the point's target. Each sample is one run
 * of fio; each direction its one job moved data in is one result, with
 * fio's IOPS and latencies beside the bytes and time (fio_output.h).
 *
 * The job file the guest hands fio is the user's behind a [global]
 * section of ours: the target as filename (and in place of every {dev}),
 * the point's bs_kb, size_mb and runtime_ms when it has them, and
 * clocksource=clock_gettime, so fio times itself by the guest's clock as
 * the other engines do (with machine.clock "virtual", QEMU's instruction
 * count) rather than by reading the TSC. A later [global] of the user's
 * wins, as fio merges them in order.
 */
#include "engine.h"
#include "fio_output.h"
#include "proto/spec_keys.h"
#include "report.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The longest job file the guest takes: far beyond any hand-written one. */
#define FIO_JOB_MAX (256u << 10)
/* fio's JSON+ report with every latency bin: a few hundred KiB at most. */
#define FIO_REPORT_MAX (8u << 20)
/* How long fio may run past its runtime (start-up, ramp, the final sync). */
#define FIO_GRACE_S 120
/* No runtime: the host's machine.timeout_s is the bound. */
#define FIO_UNBOUNDED_S 86400

#define FIO_REPORT "/tmp/iobisect-fio.json"

static char job_path[256];
static struct fio_job_result result;

static int read_all(const char *path, char **out, size_t *len, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || (size_t)st.st_size > max) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	char *buf = malloc((size_t)st.st_size + 1);
	ssize_t n = buf ? read(fd, buf, (size_t)st.st_size) : -1;
	close(fd);
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	*out = buf;
	*len = (size_t)n;
	return 0;
}

/* Write `text` to f with every {dev} as `dev`. */
static void put_substituted(FILE *f, const char *text, const char *dev)
{
	const char *p = text, *q;
	while ((q = strstr(p, "{dev}"))) {
		fwrite(p, 1, (size_t)(q - p), f);
		fputs(dev, f);
		p = q + 5;
	}
	fputs(p, f);
}

static int fio_prepare(struct point_ctx *ctx)
{
	const struct spec_line *l = ctx->line;
	const char *job = spec_get(l, "job"), *floor = spec_get(l, "kernel_min");
	uint64_t bs_kb, size_mb, runtime_ms;
	struct utsname u;
	char src[256], *text = NULL;
	size_t len;

	uname(&u);
	if (floor && sys_kernel_older(u.release, floor))
		return report_error("workload",
				    "kernel %s is older than %s, the oldest "
				    "the packed fio's C library runs on",
				    u.release, floor);
	/* fio keeps its jobs' state in SysV shared memory (shmget). */
	if (!sys_exists("/proc/sysvipc"))
		return report_error("workload",
				    "kernel %s has no System V IPC "
				    "(CONFIG_SYSVIPC), which fio needs: build "
				    "it with the 'fio' Kconfig fragment",
				    u.release);
	if (!sys_exists(PROTO_FIO_PATH))
		return report_error("workload",
				    "'%s' is not in the initramfs: the host "
				    "had no fio to pack",
				    PROTO_FIO_PATH);
	snprintf(src, sizeof(src), "%s/%s.fio", PROTO_FIO_JOB_DIR, job);
	if (read_all(src, &text, &len, FIO_JOB_MAX) < 0)
		return report_error("workload", "cannot read the job file '%s'",
				    src);
	if (spec_u64(l, "bs_kb", 0, &bs_kb) ||
	    spec_u64(l, "size_mb", 0, &size_mb) ||
	    spec_u64(l, "runtime_ms", 0, &runtime_ms)) {
		free(text);
		return -1;
	}
	snprintf(job_path, sizeof(job_path), "/tmp/iobisect-%s.fio", job);
	FILE *f = fopen(job_path, "w");
	if (!f) {
		free(text);
		return report_error("workload", "cannot write '%s': %s",
				    job_path, strerror(errno));
	}
	fprintf(f, "[global]\nfilename=%s\nclocksource=clock_gettime\n",
		ctx->path);
	if (bs_kb)
		fprintf(f, "bs=%lluk\n", (unsigned long long)bs_kb);
	if (size_mb)
		fprintf(f, "size=%llum\n", (unsigned long long)size_mb);
	if (runtime_ms)
		fprintf(f, "runtime=%llums\n", (unsigned long long)runtime_ms);
	put_substituted(f, text, ctx->path);
	free(text);
	if (fclose(f))
		return report_error("workload", "cannot write '%s': %s",
				    job_path, strerror(errno));
	ctx->runtime_ns = runtime_ms * 1000000ull;
	return 0;
}

static int fio_run(struct point_ctx *ctx, struct sample_result *res, int *nr)
{
	char *argv[] = {PROTO_FIO_PATH, "--output-format=json+",
			"--output=" FIO_REPORT, job_path, NULL};
	uint64_t u0, s0, runtime_s = ctx->runtime_ns / 1000000000ull;
	int timeout = ctx->runtime_ns ? (int)(2 * runtime_s) + FIO_GRACE_S
				      : FIO_UNBOUNDED_S;
	char err[256], *text = NULL;
	size_t len;

	unlink(FIO_REPORT);
	engine_sample_begin(&res[0], &u0, &s0);
	int rc = sys_run(argv, timeout);
	engine_sample_end(&res[0], &u0, &s0);
	if (rc < 0)
		return report_error("workload", "fio on '%s': %s", ctx->path,
				    errno == ETIMEDOUT ? "timed out"
						       : strerror(errno));
	if (rc != 0)
		return report_error("workload",
				    "fio on '%s' exited with status %d (its "
				    "messages are on the console)",
				    ctx->path, rc);
	if (read_all(FIO_REPORT, &text, &len, FIO_REPORT_MAX) < 0)
		return report_error("workload", "cannot read fio's report '%s'",
				    FIO_REPORT);
	rc = fio_output_parse(&result, text, len, err, sizeof(err));
	free(text);
	if (rc)
		return report_error("workload", "%s", err);

	/* fio ran as a child: its CPU time is what it reports, per job. */
	double ms = (double)result.job_runtime_ms;
	for (int i = 0; i < result.nr_dirs; i++) {
		const struct fio_dir *d = &result.dirs[i];
		/* One run of fio, one window: the same readings for each. */
		if (i) {
			memset(&res[i], 0, sizeof(res[i]));
			memcpy(res[i].counters, res[0].counters,
			       sizeof(res[0].counters));
		}
		res[i].metric = d->name;
		res[i].io_bytes = d->io_bytes;
		res[i].runtime_ns = d->runtime_ms * 1000000ull;
		res[i].usr_ns = (uint64_t)(result.usr_cpu / 100 * ms * 1e6);
		res[i].sys_ns = (uint64_t)(result.sys_cpu / 100 * ms * 1e6);
		res[i].verified = 1;
		res[i].unchecked = ctx->unchecked;
		res[i].fio = d;
	}
	*nr = result.nr_dirs;
	return 0;
}

const struct engine_ops engine_fio = {
	.name = "fio",
	.prepare = fio_prepare,
	.run_sample = fio_run,
};
