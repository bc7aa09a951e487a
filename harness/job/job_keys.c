/*
 * job_keys.c: the table of a job's keys (see job_keys.h) and what reads
 * it: the key lists, the defaults, the reading of each scalar key into
 * struct job, the ranges and `iobisect help job`.
 */
#include "job_keys.h"
#include "job_types.h"

#include "clock.h"
#include "job_verdict.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static const char *const accels[] = { "auto", "kvm", "tcg", NULL };
static const char *const clocks[] = { "auto", "virtual", "wall", NULL };
static const char *const kinds[] = { "local", "slurm", NULL };
/* In the order of enum bisect_type. */
static const char *const types[] = { "perf", "build", "boot", NULL };
static const char *const directions[] = { "slower", "faster", NULL };

/*
 * Where struct job keeps member `m`, a compile error unless it is a `T`
 * (_Generic has no other branch), so an entry cannot write a string
 * where an int is kept.
 */
#define JOB_AT(T, m) _Generic(((struct job *)0)->m, T: offsetof(struct job, m))

/* 0 is the place of no key (job_keys.h): the job file's own path is there. */
_Static_assert(offsetof(struct job, path) == 0, "job.path first");
/* JK_ENUM writes an int; the bisect type is kept as its enum. */
_Static_assert(sizeof(enum bisect_type) == sizeof(int), "an int's size");

/* clang-format off */
const struct job_key job_keys[] = {
	/* job.c names it from the file when it is not given. */
	{ .key = "name", .type = JK_STRING, .at = JOB_AT(char *, name),
	  .def = "the file's name", .flags = JKF_DEF_ELSEWHERE,
	  .help = "the job's folder under results (letters, digits, '.', '_', '-')" },
	{ .key = "description", .type = JK_STRING,
	  .help = "words for people; nothing reads them" },
	{ .key = "repo", .type = JK_PATH, .at = JOB_AT(char *, repo),
	  .help = "the kernel git repository (bisect, sweep, test, measure)" },
	{ .key = "good", .type = JK_STRING, .at = JOB_AT(char *, good),
	  .help = "a revision known to be fast" },
	{ .key = "bad", .type = JK_STRING, .at = JOB_AT(char *, bad),
	  .help = "a revision known to be slow (needed by threshold auto)" },
	{ .key = "kernel", .type = JK_PATH, .at = JOB_AT(char *, kernel),
	  .help = "a bzImage to boot instead of a build (run only)" },
	{ .key = "kconfig", .type = JK_SECTION,
	  .def = "{\"base\": \"tiny\", all fragments}",
	  .help = "base (\"tiny\" or a .config), fragments, by_version rules" },
	{ .key = "toolchain", .type = JK_SECTION, .def = "the host's gcc",
	  .help = "compilers by kernel version (min, max, cc, hostcc, chroot, prefix)" },
	{ .key = "machine", .type = JK_SECTION,
	  .help = "the guest machine: the machine.* keys" },
	{ .key = "topology", .type = JK_SECTION,
	  .help = "required: a preset, a preset with overrides, or disks and layers" },
	{ .key = "workload", .type = JK_SECTION,
	  .help = "required: the engine and its keys; lists expand to points" },
	{ .key = "runs", .type = JK_SECTION,
	  .help = "boots and samples: the runs.* keys" },
	/* Read after the workload, whose figures it names (job.c). */
	{ .key = "metric", .type = JK_STRING, .at = JOB_AT(char *, metric),
	  .def = "read", .flags = JKF_READ_ELSEWHERE,
	  .help = "the figure a verdict decides on: read, write, rewrite, or a "
		  "fio figure (read.iops, read.clat_ns.percentile.99.000000)" },
	/* Unset: the first point (probe.c). */
	{ .key = "metric_point", .type = JK_STRING,
	  .at = JOB_AT(char *, metric_point), .def = "the first point",
	  .flags = JKF_DEF_ELSEWHERE,
	  .help = "the workload point a verdict decides on" },
	{ .key = "threshold", .type = JK_SPECIAL,
	  .at = JOB_AT(struct threshold, threshold), .def = "auto",
	  .read = job_verdict_threshold,
	  .help = "\"10%\", \"25MB/s\" (0.01 up), or \"auto\": bad's level is slow" },
	{ .key = "bisect_type", .type = JK_ENUM,
	  .at = JOB_AT(enum bisect_type, bisect_type), .def = "perf",
	  .choices = types, .noun = "bisect type",
	  .help = "what makes a commit bad: slow, not building, not booting" },
	{ .key = "inputs_only", .type = JK_BOOL, .at = JOB_AT(int, inputs_only),
	  .def = "true", .min = 0, .max = 1,
	  .help = "bisect only the commits that change a file the endpoints' "
		  "kernels are built from (false: every commit)" },
	{ .key = "stand_in", .type = JK_BOOL, .at = JOB_AT(int, stand_in),
	  .def = "true", .min = 0, .max = 1,
	  .help = "under a fixed threshold: the first step shown below it stands "
		  "in for bad (those at good's level before it are fast); bad is "
		  "built only when none is, or after the answer for the revert "
		  "check and the other changes (false: bad is built first)" },
	{ .key = "results", .type = JK_PATH, .at = JOB_AT(char *, results),
	  .def = "results",
	  .help = "the results folder (--results DIR on the command line)" },
	{ .key = "direction", .type = JK_ENUM, .at = JOB_AT(int, faster),
	  .def = "slower", .choices = directions, .noun = "direction",
	  .help = "faster: find the commit that made it faster" },
	{ .key = "confidence", .type = JK_SPECIAL,
	  .at = JOB_AT(double, confidence), .def = "0.95",
	  .read = job_verdict_confidence,
	  .help = "what the answer's pairs must reach: 0.5 to 0.9999, or \"95%\"" },
	{ .key = "table", .type = JK_SECTION, .def = "a row per point",
	  .help = "how run lays out its medians (rows, columns)" },
	{ .key = "executor", .type = JK_SECTION, .def = "local",
	  .help = "where probes run: the executor.* keys" },
	{ .key = "prebuilt", .type = JK_SECTION,
	  .help = "images made elsewhere: folder or command, instead of builds" },

	{ .key = "runs.min", .type = JK_INT, .at = JOB_AT(int, runs_min),
	  .def = "1", .min = 1, .max = 100,
	  .help = "boots of a commit before its first verdict" },
	{ .key = "runs.max", .type = JK_INT, .at = JOB_AT(int, runs_max),
	  .def = "8", .min = 1, .max = 1000,
	  .help = "boots of a commit at most (the endpoints and pairs: twice)" },
	{ .key = "runs.samples", .type = JK_INT, .at = JOB_AT(int, samples),
	  .def = "3", .min = 1, .max = 1000,
	  .help = "samples of each point in a boot, after the warmup" },
	{ .key = "runs.warmup", .type = JK_INT, .at = JOB_AT(int, warmup),
	  .def = "1", .min = 0, .max = 100,
	  .help = "samples dropped at the start of each point" },
	{ .key = "runs.wall_pairs", .type = JK_INT,
	  .at = JOB_AT(int, wall_pairs), .def = "3", .min = 0, .max = 50,
	  .help = "after an answer on the virtual clock: culprit and parent booted "
		  "in turns on the wall clock, for the size TCG shows there (0: none)" },
	{ .key = "runs.revert", .type = JK_BOOL, .at = JOB_AT(int, revert),
	  .def = "true", .min = 0, .max = 1,
	  .help = "after a perf answer: the bad endpoint with it reverted, built once "
		  "and booted in pairs against it (up to runs.max pairs): how much of "
		  "the drop the revert brings back; false turns it off" },
	{ .key = "runs.changes", .type = JK_INT, .at = JOB_AT(int, changes),
	  .def = "3", .min = 1, .max = 20,
	  .help = "after a perf answer: the changes sought in the range, the answer's "
		  "among them; each part whose ends differ beyond the noise is bisected "
		  "on its own, on the boots taken (1: the answer alone)" },

	/* The host's CPUs decide it: job.c asks vcpus_default. */
	{ .key = "machine.cpus", .type = JK_INT,
	  .at = JOB_AT(int, machine.cpus),
	  .def = "1 under TCG; under KVM the host's CPUs less one, 1 to 2",
	  .min = 1, .max = 64, .flags = JKF_DEF_ELSEWHERE,
	  .help = "the guest's vCPUs" },
	{ .key = "machine.memory_mb", .type = JK_INT,
	  .at = JOB_AT(int, machine.memory_mb), .def = "512",
	  .min = 64, .max = 65536,
	  .help = "the guest's RAM" },
	{ .key = "machine.accel", .type = JK_CHOICE,
	  .at = JOB_AT(char *, machine.accel), .def = "auto",
	  .choices = accels, .noun = "accelerator",
	  .help = "auto: KVM when /dev/kvm is usable, else TCG" },
	{ .key = "machine.qemu", .type = JK_PATH,
	  .at = JOB_AT(char *, machine.qemu), .def = "qemu-system-x86_64",
	  .help = "the QEMU binary" },
	{ .key = "machine.timeout_s", .type = JK_INT,
	  .at = JOB_AT(int, machine.timeout_s), .def = "300",
	  .min = 1, .max = 86400,
	  .help = "a whole boot, from QEMU's start to the guest's end" },
	{ .key = "machine.append", .type = JK_STRING,
	  .at = JOB_AT(char *, machine.append),
	  .help = "more kernel command line, at most 1024 characters" },
	{ .key = "machine.pin", .type = JK_BOOL, .at = JOB_AT(int, machine.pin),
	  .def = "true", .min = 0, .max = 1,
	  .help = "QEMU's vCPUs on CPUs of their own, when the host has them" },
	/* "auto": the virtual clock under TCG (clock.h, docs/clocks.md). */
	{ .key = "machine.clock", .type = JK_CHOICE,
	  .at = JOB_AT(char *, machine.clock), .def = "auto",
	  .choices = clocks, .noun = "clock",
	  .help = "what times the guest: wall, virtual (-icount) or auto (docs/clocks.md)" },
	/* The disks decide it: clock_job_shift (clock.h). */
	{ .key = "machine.icount_shift", .type = JK_INT,
	  .at = JOB_AT(int, machine.icount_shift),
	  .def = "0 when every disk's latency is the guest's own (nullb), else 4",
	  .min = 0, .max = CLOCK_ICOUNT_SHIFT_MAX, .flags = JKF_DEF_ELSEWHERE,
	  .help = "the virtual clock: 2^N ns of guest time an instruction" },
	{ .key = "machine.profile", .type = JK_BOOL,
	  .at = JOB_AT(int, machine.profile), .def = "true", .min = 0, .max = 1,
	  .help = "a confirmed culprit and its parent are profiled, one boot each "
		  "(virtual clock, QEMU with plugins): false turns it off" },

	/*
	 * The executor's three numbers stay unset in the job (job.c): the
	 * executor applies these defaults where its command line can win
	 * (executor.c).
	 */
	{ .key = "executor.kind", .type = JK_ENUM,
	  .at = JOB_AT(int, executor.kind), .def = "local", .choices = kinds,
	  .noun = "executor", .flags = JKF_DEF_ELSEWHERE,
	  .help = "local (this process) or slurm (a job per probe)" },
	{ .key = "executor.partition", .type = JK_STRING,
	  .at = JOB_AT(char *, executor.partition),
	  .help = "sbatch --partition" },
	{ .key = "executor.account", .type = JK_STRING,
	  .at = JOB_AT(char *, executor.account),
	  .help = "sbatch --account" },
	{ .key = "executor.time_limit", .type = JK_STRING,
	  .at = JOB_AT(char *, executor.time_limit),
	  .help = "sbatch --time" },
	/* A list: job.c reads it (each an sbatch option). */
	{ .key = "executor.sbatch_args", .type = JK_SECTION,
	  .help = "more sbatch options, a list" },
	{ .key = "executor.probes", .type = JK_INT,
	  .at = JOB_AT(int, executor.probes), .def = "1", .min = 1, .max = 64,
	  .flags = JKF_DEF_ELSEWHERE,
	  .help = "commits probed at once per round (multisection)" },
	{ .key = "executor.retries", .type = JK_INT,
	  .at = JOB_AT(int, executor.retries), .def = STR(EXECUTOR_RETRIES),
	  .min = 0, .max = 10, .flags = JKF_DEF_ELSEWHERE,
	  .help = "runs again of a task Slurm lost, then untestable" },
	{ .key = NULL },
};
/* clang-format on */

/* Does `key` ("runs.min") belong to `section` ("runs"; "" top level)? */
static const char *name_in(const char *key, const char *section)
{
	size_t n = strlen(section);
	const char *dot = strchr(key, '.');

	if (!n)
		return dot ? NULL : key;
	return !strncmp(key, section, n) && key[n] == '.' ? key + n + 1 : NULL;
}

const struct job_key *job_key_find(const char *section, const char *name)
{
	for (const struct job_key *k = job_keys; k->key; k++) {
		const char *n = name_in(k->key, section);
		if (n && !strcmp(n, name))
			return k;
	}
	die("no job key '%s%s%s' in the table", section, *section ? "." : "",
	    name);
	return NULL;
}

const char **job_key_names(const char *section)
{
	size_t nr = 0;
	const char **out = xcalloc(ARRAY_SIZE(job_keys), sizeof(*out));

	for (const struct job_key *k = job_keys; k->key; k++) {
		const char *n = name_in(k->key, section);
		if (n)
			out[nr++] = n;
	}
	return out;
}

double job_key_default_num(const char *section, const char *name)
{
	const char *def = job_key_find(section, name)->def;

	return def ? strtod(def, NULL) : 0;
}

/* The string kept at `field` is freed and `owned` takes its place. */
static void set_string(void *field, char *owned)
{
	free(*(char **)field);
	*(char **)field = owned;
}

/* `v`, the value of key `k` (the key path at it), into `field`. */
static int read_value(struct keypath *c, const struct job_key *k, json_t *v,
		      void *field)
{
	const char *s;
	long long x;
	int i;

	switch (k->type) {
	case JK_STRING:
	case JK_PATH:
		if (kp_str(c, v, &s))
			return -1;
		set_string(field, k->type == JK_PATH ? job_expand_home(s)
						     : xstrdup(s));
		return 0;
	case JK_INT:
		if (kp_int(c, v, k->min, k->max, &x))
			return -1;
		*(int *)field = (int)x;
		return 0;
	case JK_BOOL:
		if (!json_is_boolean(v))
			return kp_fail(c, "expected true or false");
		*(int *)field = json_is_true(v);
		return 0;
	case JK_ENUM:
	case JK_CHOICE:
		if (kp_enum(c, v, k->choices, k->noun, &i))
			return -1;
		if (k->type == JK_ENUM)
			*(int *)field = i;
		else
			set_string(field, xstrdup(k->choices[i]));
		return 0;
	case JK_SPECIAL:
		return k->read(c, v, field);
	default:
		die("job key '%s' is a section: its own parser reads it",
		    k->key);
		return -1;
	}
}

/*
 * A default is read as a job would write it ("300", "true", "auto"), by
 * the reader the job's own value goes through: a default out of its
 * key's range fails the first job loaded, and so the unit tests.
 */
void job_keys_defaults(struct job *job)
{
	struct keypath c = {"job_keys.c", STRBUF_INIT};

	for (const struct job_key *k = job_keys; k->key; k++) {
		json_t *v;

		if (!k->at || !k->def || (k->flags & JKF_DEF_ELSEWHERE))
			continue;
		v = json_loads(k->def, JSON_DECODE_ANY, NULL);
		if (!v)
			v = json_string(k->def);
		size_t old = kp_push(&c, k->key);
		if (read_value(&c, k, v, (char *)job + k->at))
			die("job key '%s': its default is not one of its values",
			    k->key);
		kp_pop(&c, old);
		json_decref(v);
	}
	strbuf_release(&c.path);
}

int job_keys_read(struct keypath *c, json_t *obj, const char *section,
		  struct job *job)
{
	for (const struct job_key *k = job_keys; k->key; k++) {
		const char *name = name_in(k->key, section);
		json_t *v;

		if (!name || !k->at || (k->flags & JKF_READ_ELSEWHERE) ||
		    !(v = json_object_get(obj, name)))
			continue;
		size_t old = kp_push(c, name);
		int r = read_value(c, k, v, (char *)job + k->at);
		kp_pop(c, old);
		if (r)
			return -1;
	}
	return 0;
}

const char *job_key_type_name(const struct job_key *k)
{
	switch (k->type) {
	case JK_STRING:
		return "string";
	case JK_PATH:
		return "path";
	case JK_INT:
		return "integer";
	case JK_BOOL:
		return "true/false";
	case JK_ENUM:
	case JK_CHOICE:
		return "choice";
	case JK_SECTION:
		return "section";
	default:
		return "text";
	}
}

void job_key_range(struct strbuf *out, const struct job_key *k)
{
	if (k->type == JK_INT)
		strbuf_addf(out, "%lld to %lld", k->min, k->max);
	for (size_t i = 0; k->choices && k->choices[i]; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", k->choices[i]);
}

void job_keys_print(FILE *f, int markdown)
{
	struct strbuf range = STRBUF_INIT;

	if (markdown)
		fprintf(f, "| key | type | default | range | what it is |\n"
			   "|---|---|---|---|---|\n");
	for (const struct job_key *k = job_keys; k->key; k++) {
		strbuf_reset(&range);
		job_key_range(&range, k);
		if (markdown)
			fprintf(f, "| `%s` | %s | %s | %s | %s |\n", k->key,
				job_key_type_name(k), k->def ? k->def : "",
				range.buf, k->help);
		else
			fprintf(f, "%-22s %-10s %s%s%s%s%s\n", k->key,
				job_key_type_name(k), k->help,
				k->def ? "; default " : "", k->def ? k->def : "",
				range.len ? "; " : "", range.buf);
	}
	strbuf_release(&range);
}
