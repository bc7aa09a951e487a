/*
 * fio_output.h: what the guest takes from fio's --output-format=json+
 * report: for the one job a point runs, each direction that moved data
 * (read, write, trim) with its bytes, time, IOPS and latencies under fio's
 * own names, which the `sample` frame carries to the host (PROTOCOL.md).
 */
#ifndef IOBISECT_GUEST_FIO_OUTPUT_H
#define IOBISECT_GUEST_FIO_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

/* fio's default list has 17 percentiles; percentile_list allows 20. */
#define FIO_MAX_PCT 32

/* One of fio's latency objects (slat_ns, clat_ns, lat_ns). */
struct fio_lat {
	int have; /* fio measured it (N > 0) */
	uint64_t min, max, n;
	double mean, stddev;
	int nr_pct;
	struct {
		char name[16]; /* fio's, "99.000000" */
		uint64_t ns;
	} pct[FIO_MAX_PCT];
};

struct fio_dir {
	const char *name; /* "read", "write", "trim" */
	uint64_t io_bytes, bw_bytes, runtime_ms, total_ios;
	double iops;
	struct fio_lat slat, clat, lat;
};

struct fio_job_result {
	char jobname[64];
	double usr_cpu, sys_cpu; /* percent of job_runtime_ms */
	uint64_t job_runtime_ms;
	int nr_dirs;
	struct fio_dir dirs[3];
};

/*
 * Read fio's JSON report in `text` (anything before its first '{', such
 * as a warning fio printed, is skipped). The report must hold exactly one
 * job (group_reporting merges several), without an error, that moved
 * data. 0, or -1 with the reason in `err`. Pure.
 */
int fio_output_parse(struct fio_job_result *out, const char *text,
		     size_t len, char *err, size_t errsize);

struct json;
/* Add a direction's fio figures to a `sample` frame being written. */
void fio_output_json(struct json *j, const struct fio_dir *d);

#endif
