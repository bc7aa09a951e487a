/*
 * job.h: a job file read. job.c parses the JSON (jansson) into the
 * structs of job_types.h, checks every key and expands the workload's
 * lists into a matrix of points. Every other module reads these structs
 * and never the JSON, so they can be filled by hand in tests.
 */
#ifndef IOBISECT_JOB_H
#define IOBISECT_JOB_H

#include "job_types.h"
#include "proto/frame.h"
#include "proto/spec_keys.h"
#include "util.h"

/* Names by enum disk_bus and enum disk_backing, as jobs and specs spell them.
 */
extern const char *const job_bus_names[];
extern const char *const job_backing_names[];

/* The QEMU cache mode of `d`: its own, else writeback (none for host). */
const char *job_disk_cache(const struct disk_spec *d);

/*
 * The largest request the guest's null_blk takes for topology `t`'s nullb
 * disks, KiB: a virtio-blk disk's (the block layer's default cap, 1280
 * KiB) or a larger max_sectors_kb, not null_blk's own 127.5 KiB, under
 * which a regression in request sizes cannot show (the re-planted
 * readahead fix read 0.0% there and -46.6% at 1280 KiB).
 */
#define JOB_NULLB_MAX_KB 1280 /* BLK_DEF_MAX_SECTORS, 2560 sectors */
uint32_t job_nullb_max_kb(const struct topology *t);

/*
 * 1 when a request to disk `d` is done before the vCPU that asked for it
 * runs on: a disk on null-co with no latency and no throttle, on a bus
 * whose queue QEMU serves in the vCPU's thread (BUS_AT_ONCE, qemu.c).
 */
int job_disk_completes_at_once(const struct disk_spec *d);

/*
 * 1 when the guest may wait for some disk of `t` on the host's time: a
 * disk of QEMU's with a latency, a throttle, or a queue QEMU's main loop
 * serves. Under the virtual clock such a wait is host time in the figure
 * (docs/clocks.md); a nullb disk, or a virtio-blk null disk with no
 * latency, leaves none.
 */
int job_topology_waits_on_host(const struct topology *t);
/* The same for any topology of `job`. */
int job_waits_on_host(const struct job *job);

/*
 * 1 when some disk of `job` has a latency the guest's own timers keep (a
 * nullb disk's completion time) and none waits on the host: every wait is
 * guest time, and the virtual clock's rate decides how much it weighs
 * against the guest's work (clock.h).
 */
int job_waits_in_guest_time(const struct job *job);

/*
 * Parse and check a job file. Any problem gives one error that names the
 * file and the key ("job.json: workload.threads: expected an integer or a
 * list of integers") and returns -1.
 */
int job_load(struct job *job, const char *path);
/* The same from a JSON text; `origin` names it in messages. */
int job_parse(struct job *job, const char *text, const char *origin);
void job_release(struct job *job);

/*
 * Added by job.c's author (additive):
 *
 * job_load_overrides: job_load with command-line overrides applied to the
 * JSON before it is checked, each "dotted.key=value"; the value is read as
 * JSON when it parses, else taken as a string: "topology=raid0-4",
 * "topology.path=/dev/loop0", "workload=rawread", "workload.bs_kb=[128,2048]",
 * "kernel=/tmp/bzImage". A string topology or workload becomes
 * {"preset": ...} / {"engine": ...} when a key below it is set. A NULL path
 * starts from {"name": "run"}. `overrides` is NULL-terminated or NULL.
 */
int job_load_overrides(struct job *job, const char *path,
		       const char *const *overrides);
/*
 * The override job_load_overrides takes for `--results DIR`: the folder
 * as a JSON string, whatever it looks like ("2024" stays a name). -1
 * after error() when DIR is not UTF-8 text (a job is JSON).
 */
int job_override_results(struct strvec *ov, const char *dir);
/* job_load with `--results DIR` (NULL: the job's own "results"). */
int job_load_results(struct job *job, const char *path, const char *results);
/*
 * The job's verdicts need the bad endpoint measured: a perf job whose
 * threshold is auto (the line sits between the endpoints' levels).
 */
int job_needs_bad(const struct job *job);
/* error() naming the job when it needs bad and `bad` is NULL or "". */
int job_check_needs_bad(const struct job *job, const char *bad);
/*
 * The build of `rev` from `repo` as the job has its kernels (its kconfig,
 * toolchains and prebuilt images) into *req, the rest of it zero: every
 * build of a job's kernel asks kbuild_image this way.
 */
void job_build_request(struct build_request *req, const struct job *job,
		       const char *repo, const char *rev);
/*
 * The presets of the data folder (qemu/NAME.json, job_datadir.h), sorted,
 * pushed on `out`: only names a job may give (letters, digits, '_', '-'),
 * so a file named as shell code is never offered. None without a folder.
 */
void job_presets(struct strvec *out);
/* repo, good and bad are optional in a job (run needs none): bisect checks. */
int job_check_bisect(const struct job *job);
/* Limits on what the lists of a job may expand to. */
#define JOB_MAX_TOPOLOGIES 64
#define JOB_MAX_POINTS 4096
/* What the guest can build and run in one boot (proto/frame.h). */
#define JOB_MAX_DISKS PROTO_SPEC_MAX_DISKS
#define JOB_MAX_LAYERS PROTO_SPEC_MAX_LAYERS
#define JOB_MAX_POINTS_PER_TOPOLOGY PROTO_SPEC_MAX_POINTS
/* A job or preset file is a few KiB; this is far beyond any real one. */
#define JOB_FILE_MAX ((size_t)4 << 20)

/*
 * runtime_ms, the time bound of a sample of seqread, seqwrite and rawread:
 * at most an hour, 0 for none (bytes alone). A job with good and bad that
 * gives none gets JOB_BISECT_RUNTIME_MS: a bisection boots every commit
 * several times, and without a bound a slow commit's boot lasts as many
 * times longer as it is slower. On the demo job (128 MiB of 4 KiB reads
 * at 200 us a request) a fast kernel's sample takes 0.45-0.65 s under TCG,
 * so 1.5 s cuts only kernels below ~90 MB/s, a drop of over half: moderate
 * slowdowns are still measured over the same bytes as their baseline.
 */
#define JOB_RUNTIME_MS_MAX PROTO_RUNTIME_MS_MAX
#define JOB_BISECT_RUNTIME_MS 1500

#endif
