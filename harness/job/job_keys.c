/*
 * job_keys.c: the table of a job's keys (see job_keys.h) and what reads
 * it: the key lists, the defaults, the ranges and `iobisect help job`.
 */
#include "job_keys.h"
#include "job_types.h"

#include "clock.h"

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

/* clang-format off */
const struct job_key job_keys[] = {
	{ "name", JK_STRING, "the file's name", 0, 0, NULL,
	  "the job's folder under results (letters, digits, '.', '_', '-')" },
	{ "description", JK_STRING, NULL, 0, 0, NULL,
	  "words for people; nothing reads them" },
	{ "repo", JK_PATH, NULL, 0, 0, NULL,
	  "the kernel git repository (bisect, sweep, test, measure)" },
	{ "good", JK_STRING, NULL, 0, 0, NULL,
	  "a revision known to be fast" },
	{ "bad", JK_STRING, NULL, 0, 0, NULL,
	  "a revision known to be slow (needed by threshold auto)" },
	{ "kernel", JK_PATH, NULL, 0, 0, NULL,
	  "a bzImage to boot instead of a build (run only)" },
	{ "kconfig", JK_SECTION, "{\"base\": \"tiny\", all fragments}", 0, 0, NULL,
	  "base (\"tiny\" or a .config), fragments, by_version rules" },
	{ "toolchain", JK_SECTION, "the host's gcc", 0, 0, NULL,
	  "compilers by kernel version (min, max, cc, hostcc, chroot, prefix)" },
	{ "machine", JK_SECTION, NULL, 0, 0, NULL,
	  "the guest machine: the machine.* keys" },
	{ "topology", JK_SECTION, NULL, 0, 0, NULL,
	  "required: a preset, a preset with overrides, or disks and layers" },
	{ "workload", JK_SECTION, NULL, 0, 0, NULL,
	  "required: the engine and its keys; lists expand to points" },
	{ "runs", JK_SECTION, NULL, 0, 0, NULL,
	  "boots and samples: the runs.* keys" },
	{ "metric", JK_STRING, "read", 0, 0, NULL,
	  "the figure a verdict decides on: read, write, rewrite, or a "
	  "fio figure (read.iops, read.clat_ns.percentile.99.000000)" },
	{ "metric_point", JK_STRING, "the first point", 0, 0, NULL,
	  "the workload point a verdict decides on" },
	{ "threshold", JK_SPECIAL, "auto", 0, 0, NULL,
	  "\"10%\", \"25MB/s\" (0.01 up), or \"auto\": bad's level is slow" },
	{ "bisect_type", JK_ENUM, "perf", 0, 0, types,
	  "what makes a commit bad: slow, not building, not booting" },
	{ "results", JK_PATH, "results", 0, 0, NULL,
	  "the results folder (--results DIR on the command line)" },
	{ "direction", JK_ENUM, "slower", 0, 0, directions,
	  "faster: find the commit that made it faster" },
	{ "confidence", JK_SPECIAL, "0.95", 0, 0, NULL,
	  "what the answer's pairs must reach: 0.5 to 0.9999, or \"95%\"" },
	{ "table", JK_SECTION, "a row per point", 0, 0, NULL,
	  "how run lays out its medians (rows, columns)" },
	{ "executor", JK_SECTION, "local", 0, 0, NULL,
	  "where probes run: the executor.* keys" },
	{ "prebuilt", JK_SECTION, NULL, 0, 0, NULL,
	  "images made elsewhere: folder or command, instead of builds" },

	{ "runs.min", JK_INT, "1", 1, 100, NULL,
	  "boots of a commit before its first verdict" },
	{ "runs.max", JK_INT, "8", 1, 1000, NULL,
	  "boots of a commit at most (the endpoints and pairs: twice)" },
	{ "runs.samples", JK_INT, "3", 1, 1000, NULL,
	  "samples of each point in a boot, after the warmup" },
	{ "runs.warmup", JK_INT, "1", 0, 100, NULL,
	  "samples dropped at the start of each point" },
	{ "runs.wall_pairs", JK_INT, "3", 0, 50, NULL,
	  "after an answer on the virtual clock: culprit and parent booted "
	  "in turns on the wall clock, for the size TCG shows there (0: none)" },

	{ "machine.cpus", JK_INT, "1 under TCG; under KVM the host's CPUs less one, 1 to 2", 1, 64,
	  NULL, "the guest's vCPUs" },
	{ "machine.memory_mb", JK_INT, "512", 64, 65536, NULL,
	  "the guest's RAM" },
	{ "machine.accel", JK_ENUM, "auto", 0, 0, accels,
	  "auto: KVM when /dev/kvm is usable, else TCG" },
	{ "machine.qemu", JK_PATH, "qemu-system-x86_64", 0, 0, NULL,
	  "the QEMU binary" },
	{ "machine.timeout_s", JK_INT, "300", 1, 86400, NULL,
	  "a whole boot, from QEMU's start to the guest's end" },
	{ "machine.append", JK_STRING, NULL, 0, 0, NULL,
	  "more kernel command line, at most 1024 characters" },
	{ "machine.pin", JK_BOOL, "true", 0, 1, NULL,
	  "QEMU's vCPUs on CPUs of their own, when the host has them" },
	{ "machine.clock", JK_ENUM, "auto", 0, 0, clocks,
	  "what times the guest: wall, virtual (-icount) or auto (docs/clocks.md)" },
	{ "machine.icount_shift", JK_INT, STR(CLOCK_ICOUNT_SHIFT), 0,
	  CLOCK_ICOUNT_SHIFT_MAX, NULL,
	  "the virtual clock: 2^N ns of guest time an instruction" },
	{ "machine.profile", JK_BOOL, "true", 0, 1, NULL,
	  "a confirmed culprit and its parent are profiled, one boot each "
	  "(virtual clock, QEMU with plugins): false turns it off" },

	{ "executor.kind", JK_ENUM, "local", 0, 0, kinds,
	  "local (this process) or slurm (a job per probe)" },
	{ "executor.partition", JK_STRING, NULL, 0, 0, NULL,
	  "sbatch --partition" },
	{ "executor.account", JK_STRING, NULL, 0, 0, NULL,
	  "sbatch --account" },
	{ "executor.time_limit", JK_STRING, NULL, 0, 0, NULL,
	  "sbatch --time" },
	{ "executor.sbatch_args", JK_SECTION, NULL, 0, 0, NULL,
	  "more sbatch options, a list" },
	{ "executor.probes", JK_INT, "1", 1, 64, NULL,
	  "commits probed at once per round (multisection)" },
	{ "executor.retries", JK_INT, STR(EXECUTOR_RETRIES), 0, 10, NULL,
	  "runs again of a task Slurm lost, then untestable" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
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

int job_key_default_int(const char *section, const char *name)
{
	const struct job_key *k = job_key_find(section, name);

	if (k->type == JK_BOOL)
		return k->def && !strcmp(k->def, "true");
	return k->def ? atoi(k->def) : 0;
}

double job_key_default_num(const char *section, const char *name)
{
	const char *def = job_key_find(section, name)->def;

	return def ? strtod(def, NULL) : 0;
}

const char *job_key_default(const char *section, const char *name)
{
	return job_key_find(section, name)->def;
}

int job_key_int(struct keypath *c, json_t *obj, const char *section,
		const char *name, int *out)
{
	const struct job_key *k = job_key_find(section, name);

	return kp_intf(c, obj, name, k->min, k->max, out);
}

int job_key_enum(struct keypath *c, json_t *obj, const char *section,
		 const char *name, const char *what, int *out)
{
	const struct job_key *k = job_key_find(section, name);

	return kp_enumf(c, obj, name, k->choices, what, out);
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
	for (size_t i = 0; k->type == JK_ENUM && k->choices[i]; i++)
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
