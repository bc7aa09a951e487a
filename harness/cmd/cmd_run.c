/*
 * cmd_run.c: `iobisect run`: boot one kernel (a given image, or a commit
 * built through kbuild) N times on each topology of a job, store every
 * boot in the results tree, print each sample's MB/s as it is measured
 * (the guest's frames are read while it runs, vm.h) and a summary per
 * topology, point and metric at the end; with --json, all of it as one
 * document on stdout (docs/commands.md), the lines for people on stderr.
 * Its usage
 * (`iobisect run --help`) is made from the option table in
 * cmd_run_args.c.
 *
 * Exit: 0 when every boot was ok, 1 when a build or a boot failed or no
 * boot gave a usable sample, 128 on bad input (one line naming it), 130
 * when interrupted.
 */
#include "cmd.h"
#include "cmd_json.h"
#include "cmd_options.h"
#include "cmd_run.h"
#include "job.h"
#include "json_num.h"
#include "kbuild.h"
#include "options.h"
#include "prebuilt.h"
#include "probe.h"
#include "qemu.h"
#include "results.h"
#include "run.h"
#include "rundir.h"
#include "safety.h"
#include "stats.h"
#include "table.h"
#include "util.h"
#include "version.h"
#include "vm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What is booted: its image, the label in result paths, the build key. */
struct kernel_pick {
	char *image;
	char *commit;
	char *build_key;
};

static int pick_kernel(struct kernel_pick *k, const struct run_args *a,
		       const struct job *job, int *exit_code)
{
	const char *image = a->kernel	? a->kernel
			    : a->commit ? NULL
					: job->kernel;
	*exit_code = EXIT_ABORT;
	if (image) {
		char hex[41];
		if (!file_exists(image))
			return error("--kernel: '%s' does not exist", image);
		/*
		 * A prebuilt image is named by its content, in the 12
		 * characters a result path keeps of a commit.
		 */
		if (prebuilt_image_key(image, hex, NULL))
			return -1;
		k->image = absolute_path(image);
		k->commit = a->label ? xstrdup(a->label)
				     : xstrfmt("img-%.8s", hex);
		k->build_key = xstrfmt("image:%s", hex);
		return 0;
	}
	/*
	 * Without either, the job's own kernel: its "bad" revision, the one
	 * a bisection of it would find slow (the seed jobs run as shipped).
	 */
	const char *rev = a->commit ? a->commit : job->bad;
	const char *repo = a->repo ? a->repo : job->repo;
	if (!rev)
		return error("%s: no kernel to run: give --kernel or --commit "
			     "(or 'bad' in the job)",
			     job->path ? job->path : "job");
	if (!repo)
		return error("--commit %s: no repository: give --repo PATH",
			     rev);
	struct build_request req;
	struct build_result res = BUILD_RESULT_INIT;

	job_build_request(&req, job, repo, rev);
	int rc = kbuild_image(&res, &req);
	if (rc) {
		error("build of '%s': %s%s%s", rev,
		      res.message ? res.message : build_status_name(res.status),
		      res.log ? " (log: " : "", res.log ? res.log : "");
		if (res.first_error)
			fprintf(stderr, "  %s\n", res.first_error);
		/* A commit that does not build is the kernel's failure. */
		if (res.status != BUILD_SETUP_ERROR)
			*exit_code = 1;
		build_result_release(&res);
		return -1;
	}
	fprintf(stderr, "kernel %.12s: %s%s\n", res.commit, res.image,
		res.cached ? " (cached)" : "");
	k->image = xstrdup(res.image);
	k->commit = xstrdup(res.commit);
	k->build_key = xstrdup(res.key);
	build_result_release(&res);
	return 0;
}

/* Every non-warmup sample of one (topology, point, metric) in this run. */
struct series {
	int topo;
	char *point, *metric;
	double *mbps, *cpu;
	size_t nr, alloc, alloc_cpu;
	/* Per boot medians, for the boot-to-boot spread. */
	double *boot_median;
	size_t nr_boots, alloc_boots;
};

struct summary {
	struct series *s;
	size_t nr, alloc;
	double *first_sample_s;
	size_t nr_first, alloc_first;
	json_t *boots; /* --json: each boot as it ended; else NULL */
};

static struct series *series_get(struct summary *sum, int topo,
				 const char *point, const char *metric)
{
	for (size_t i = 0; i < sum->nr; i++)
		if (sum->s[i].topo == topo && !strcmp(sum->s[i].point, point) &&
		    !strcmp(sum->s[i].metric, metric))
			return &sum->s[i];
	ALLOC_GROW(sum->s, sum->nr + 1, sum->alloc);
	struct series *s = &sum->s[sum->nr++];
	memset(s, 0, sizeof(*s));
	s->topo = topo;
	s->point = xstrdup(point);
	s->metric = xstrdup(metric);
	return s;
}

static void summary_release(struct summary *sum)
{
	for (size_t i = 0; i < sum->nr; i++) {
		free(sum->s[i].point);
		free(sum->s[i].metric);
		free(sum->s[i].mbps);
		free(sum->s[i].cpu);
		free(sum->s[i].boot_median);
	}
	free(sum->s);
	free(sum->first_sample_s);
	json_decref(sum->boots);
}

/*
 * One sample's line, printed as the guest sends it. A warmup is named so
 * where a sample's number is: both count from 0, and the first warmup
 * and the first sample were both "#0".
 */
static void print_sample(unsigned boot, const struct proto_sample *p)
{
	char nr[24];

	snprintf(nr, sizeof(nr), "%s#%d", p->warmup ? "warmup" : "",
		 p->index);
	printf("  boot %-3u %-30s %-7s %-9s %9.1f MB/s %5.1f%% cpu%s\n", boot,
	       p->point, p->metric, nr, (double)p->bw_bytes / 1e6, p->cpu_pct,
	       !p->warmup && !p->verified ? "  (NOT VERIFIED)" : "");
	fflush(stdout);
}

/* Record one ok boot's samples (each was printed as it came). */
static void take_samples(struct summary *sum, int topo,
			 const struct proto_report *r)
{
	size_t first = sum->nr;
	size_t *before = xcalloc(sum->nr + r->nr_samples + 1, sizeof(*before));
	for (size_t i = 0; i < sum->nr; i++)
		before[i] = sum->s[i].nr;
	for (size_t i = 0; i < r->nr_samples; i++) {
		const struct proto_sample *p = &r->samples[i];
		double mbps = (double)p->bw_bytes / 1e6;
		if (p->warmup || !p->verified)
			continue;
		struct series *s = series_get(sum, topo, p->point, p->metric);
		ALLOC_GROW(s->mbps, s->nr + 1, s->alloc);
		ALLOC_GROW(s->cpu, s->nr + 1, s->alloc_cpu);
		s->mbps[s->nr] = mbps;
		s->cpu[s->nr] = p->cpu_pct;
		s->nr++;
	}
	/* The median of this boot's samples, per series it touched. */
	for (size_t i = 0; i < sum->nr; i++) {
		struct series *s = &sum->s[i];
		size_t from = i < first ? before[i] : 0;
		if (s->nr == from)
			continue;
		ALLOC_GROW(s->boot_median, s->nr_boots + 1, s->alloc_boots);
		s->boot_median[s->nr_boots++] =
			stats_median(s->mbps + from, s->nr - from);
	}
	free(before);
}

static void print_summary(const struct summary *sum, const struct job *job,
			  const struct clock *clock)
{
	struct strbuf unit = STRBUF_INIT;

	if (!sum->nr) {
		printf("\nno samples\n");
		return;
	}
	int tw = 8, pw = 5;
	for (size_t i = 0; i < sum->nr; i++) {
		int a = (int)strlen(job->topologies[sum->s[i].topo].name);
		int b = (int)strlen(sum->s[i].point);
		tw = a > tw ? a : tw;
		pw = b > pw ? b : pw;
	}
	printf("\n%-*s %-*s %-7s %4s %5s %9s %9s %9s %6s %7s %5s\n", tw,
	       "topology", pw, "point", "metric", "boot", "n", "median", "min",
	       "max", "%sd", "boot%sd", "%cpu");
	for (size_t i = 0; i < sum->nr; i++) {
		const struct series *s = &sum->s[i];
		printf("%-*s %-*s %-7s %4zu %5zu %9.1f %9.1f %9.1f %6.1f "
		       "%7.1f %5.1f\n",
		       tw, job->topologies[s->topo].name, pw, s->point,
		       s->metric, s->nr_boots, s->nr,
		       stats_median(s->mbps, s->nr), stats_min(s->mbps, s->nr),
		       stats_max(s->mbps, s->nr),
		       s->nr > 1 ? stats_pct_stddev(s->mbps, s->nr) : 0.0,
		       s->nr_boots > 1
			       ? stats_pct_stddev(s->boot_median, s->nr_boots)
			       : 0.0,
		       stats_median(s->cpu, s->nr));
	}
	clock_unit(&unit, clock);
	printf("(%s%s = 10^6 bytes/s; %%sd over samples, boot%%sd over "
	       "per-boot medians)\n",
	       unit.buf, clock->kind == CLOCK_VIRTUAL ? ": MB/s" : "");
	strbuf_release(&unit);
	if (sum->nr_first)
		printf("time from QEMU start to first sample: median %.2f s, "
		       "min %.2f s, max %.2f s\n",
		       stats_median(sum->first_sample_s, sum->nr_first),
		       stats_min(sum->first_sample_s, sum->nr_first),
		       stats_max(sum->first_sample_s, sum->nr_first));
}

/* The summary's rows for --json, in the units of their keys. */
static json_t *summary_json(const struct summary *sum, const struct job *job)
{
	json_t *rows = json_array();

	for (size_t i = 0; i < sum->nr; i++) {
		const struct series *s = &sum->s[i];
		json_array_append_new(
			rows,
			json_pack("{s:s, s:s, s:s, s:I, s:I, s:o, s:o, s:o, s:o, "
				  "s:o, s:o}",
				  "topology", job->topologies[s->topo].name,
				  "point", s->point, "metric", s->metric,
				  "boots", (json_int_t)s->nr_boots, "samples",
				  (json_int_t)s->nr, "median_mbps",
				  json_num(stats_median(s->mbps, s->nr)),
				  "min_mbps", json_num(stats_min(s->mbps, s->nr)),
				  "max_mbps", json_num(stats_max(s->mbps, s->nr)),
				  "stddev_pct",
				  json_num(s->nr > 1 ? stats_pct_stddev(s->mbps,
									s->nr)
						     : NAN),
				  "boot_stddev_pct",
				  json_num(s->nr_boots > 1
						   ? stats_pct_stddev(
							     s->boot_median,
							     s->nr_boots)
						   : NAN),
				  "cpu_pct",
				  json_num(stats_median(s->cpu, s->nr))));
	}
	return rows;
}

/*
 * The medians as the job's "table" lays them out (a row per combination
 * of the list keys when it gives none), printed and kept beside the
 * boots as table.json, whose document is returned.
 */
static json_t *print_table(const struct summary *sum, const struct job *job,
			   const char *dir)
{
	struct table_cell *cells = xcalloc(sum->nr + 1, sizeof(*cells));
	struct strbuf text = STRBUF_INIT;
	struct table t;

	for (size_t i = 0; i < sum->nr; i++) {
		const struct series *s = &sum->s[i];
		cells[i].topology = job->topologies[s->topo].name;
		cells[i].point = s->point;
		cells[i].metric = s->metric;
		cells[i].mbps = stats_median(s->mbps, s->nr);
		cells[i].cpu = stats_median(s->cpu, s->nr);
	}
	table_make(&t, &job->table, cells, sum->nr);
	table_render(&t, &job->table, &text);
	printf("\n%s", text.buf);
	json_t *doc = table_json(&t, &job->table);
	char *json = json_dumps(doc, JSON_INDENT(2));
	char *path = xstrfmt("%s/table.json", dir);
	if (!json || write_file_atomic(path, json, strlen(json)))
		warning("the table was not stored in '%s'", path);
	free(path);
	free(json);
	table_release(&t);
	strbuf_release(&text);
	free(cells);
	return doc;
}

/* The engine of topology `t`'s points (its results folder names it). */
static const char *topo_engine(const struct job *job, int t)
{
	for (size_t i = 0; i < job->nr_points; i++)
		if (job->points[i].topo == t)
			return job->points[i].engine;
	return NULL;
}

/* What one_boot says just before QEMU starts, and as samples come. */
struct boot_line {
	const char *topo;
	int nr, of;
	unsigned id;
};

static void say_boot(void *payload, unsigned id)
{
	struct boot_line *l = payload;

	l->id = id;
	fprintf(stderr, "boot %d/%d on %s (boot id %u)...\n", l->nr, l->of,
		l->topo, id);
}

static void say_sample(void *payload, const struct proto_sample *p)
{
	const struct boot_line *l = payload;

	print_sample(l->id, p);
}

/* A time from QEMU's start in seconds, null when it never came. */
static json_t *ns_as_s(uint64_t ns)
{
	return ns ? json_real(ns / 1e9) : json_null();
}

/* One boot for --json: how it went, and every sample the guest sent. */
static json_t *boot_json(const char *topo, unsigned id,
			 const struct boot_result *br)
{
	json_t *o = json_object(), *samples = json_array();

	json_object_set_new(o, "boot_id", json_integer(id));
	json_object_set_new(o, "topology", json_string(topo));
	json_object_set_new(o, "status",
			    json_string(boot_status_name(br->status)));
	if (br->status != BOOT_OK) {
		json_object_set_new(o, "detail", json_string(br->detail.buf));
		json_object_set_new(o, "console_log",
				    br->console_log
					    ? json_string(br->console_log)
					    : json_null());
	}
	json_object_set_new(o, "total_s", json_real(br->total_ns / 1e9));
	json_object_set_new(o, "hello_s", ns_as_s(br->hello_ns));
	json_object_set_new(o, "first_sample_s", ns_as_s(br->first_sample_ns));
	json_object_set_new(o, "done_s", ns_as_s(br->done_ns));
	for (size_t i = 0; i < br->report.nr_samples; i++) {
		const struct proto_sample *p = &br->report.samples[i];
		json_array_append_new(
			samples,
			json_pack("{s:s, s:s, s:i, s:b, s:b, s:o, s:I, s:o}",
				  "point", p->point, "metric", p->metric,
				  "index", p->index, "warmup", p->warmup,
				  "verified", p->verified, "mbps",
				  json_num((double)p->bw_bytes / 1e6),
				  "bw_bytes", (json_int_t)p->bw_bytes,
				  "cpu_pct", json_num(p->cpu_pct)));
	}
	json_object_set_new(o, "samples", samples);
	return o;
}

static int one_boot(const struct job *job, int t, const struct kernel_pick *k,
		    const struct machine_id *m, const char *run_dir,
		    int boot_nr, int boots, int keep, struct summary *sum,
		    int *failed)
{
	const struct topology *topo = &job->topologies[t];
	struct boot_line line = { topo->name, boot_nr, boots, 0 };
	struct probe_boot_args a = {
		.job = job,
		.topo = t,
		.engine = topo_engine(job, t),
		.commit = k->commit,
		.build_key = k->build_key,
		.image = k->image,
		.run_dir = run_dir,
		.machine = m,
		.keep_images = keep,
		.before = say_boot,
		.on_sample = say_sample,
		.payload = &line,
	};
	struct boot_result br;
	unsigned id;
	int rc = -1, stored;

	boot_result_init(&br);
	if (probe_boot_once(&a, &br, &id, &stored))
		goto out;
	if (stored < 0)
		warning("boot %u was not stored", id);

	printf("boot %u on %s: %s (%.1f s; hello %.2f s, first sample "
	       "%.2f s, done %.2f s)\n",
	       id, topo->name, boot_status_name(br.status), br.total_ns / 1e9,
	       br.hello_ns / 1e9, br.first_sample_ns / 1e9, br.done_ns / 1e9);
	if (sum->boots)
		json_array_append_new(sum->boots, boot_json(topo->name, id, &br));
	if (br.status == BOOT_OK) {
		take_samples(sum, t, &br.report);
		ALLOC_GROW(sum->first_sample_s, sum->nr_first + 1,
			   sum->alloc_first);
		sum->first_sample_s[sum->nr_first++] = br.first_sample_ns / 1e9;
	} else {
		*failed = 1;
		printf("  %s\n  console: %s\n", br.detail.buf,
		       br.console_log ? br.console_log : "-");
	}
	fflush(stdout);
	rc = br.status == BOOT_INTERRUPTED ? 1 : 0;
out:
	boot_result_release(&br);
	return rc;
}

/* The run's first line: the kernel, the boots, the accelerator and clock. */
static void say_run(const struct kernel_pick *k, const struct job *job,
		    int boots, int kvm, const struct clock *clock)
{
	printf("kernel %s (%s), %zu topolog%s x %d boot(s), %d sample(s) per "
	       "point, %s, %s clock",
	       k->commit, k->image, job->nr_topologies,
	       job->nr_topologies == 1 ? "y" : "ies", boots, job->samples,
	       kvm ? "KVM" : "TCG", clock_name(clock->kind));
	if (clock->kind == CLOCK_VIRTUAL)
		printf(" (icount, shift %d)", clock->shift);
	putchar('\n');
}

/*
 * `boots` boots on each topology that has points, until the harness is
 * interrupted. 1 when a boot could not be set up (the run folder, an
 * image or the spec: the next boot would fail the same way), else 0;
 * *failed is set when a boot failed.
 */
static int boot_topologies(const struct job *job, const struct kernel_pick *k,
			   const struct probe_machine *pm, const char *run_dir,
			   int boots, int keep, struct summary *sum,
			   int *failed)
{
	int setup_failed = 0;

	for (size_t t = 0;
	     t < job->nr_topologies && !run_interrupted() && !setup_failed;
	     t++) {
		if (!topo_engine(job, (int)t))
			continue;
		struct machine_id m = MACHINE_ID_INIT;
		probe_machine_id(&m, job, (int)t, pm);
		for (int b = 1; b <= boots && !run_interrupted(); b++) {
			int r = one_boot(job, (int)t, k, &m, run_dir, b, boots,
					 keep, sum, failed);
			if (r < 0)
				setup_failed = 1;
			if (r)
				break;
		}
		results_machine_release(&m);
	}
	return setup_failed;
}

/*
 * The --json document of a run: the kernel, the machine, every boot (taken
 * from `sum`), the summary, the table (taken), where the results are
 * (NULL: none stored) and the exit code.
 */
static json_t *run_json(const struct kernel_pick *k, const struct job *job,
			int kvm, const struct clock *clock, int boots,
			struct summary *sum, json_t *table, const char *results,
			int code)
{
	json_t *doc = json_object();

	json_object_set_new(doc, "iobisect", json_string(version_string()));
	json_object_set_new(doc, "kernel",
			    json_pack("{s:s, s:s, s:s}", "commit", k->commit,
				      "image", k->image, "build_key",
				      k->build_key));
	json_object_set_new(doc, "job", json_string(job->name));
	json_object_set_new(doc, "accel", json_string(kvm ? "kvm" : "tcg"));
	json_object_set_new(doc, "clock", json_string(clock_name(clock->kind)));
	if (clock->kind == CLOCK_VIRTUAL)
		json_object_set_new(doc, "icount_shift",
				    json_integer(clock->shift));
	json_object_set_new(doc, "boots_per_topology", json_integer(boots));
	json_object_set_new(doc, "boots", sum->boots);
	sum->boots = NULL;
	json_object_set_new(doc, "summary", summary_json(sum, job));
	json_object_set_new(doc, "table", table ? table : json_null());
	json_object_set_new(doc, "results",
			    results ? json_string(results) : json_null());
	json_object_set_new(doc, "exit_code", json_integer(code));
	return doc;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = {0};
	struct job job;
	struct kernel_pick k = {0};
	struct summary sum = {0};
	struct safety_hold *holds = NULL;
	struct rundir rd = RUNDIR_INIT;
	struct probe_machine pm = { 0 };
	size_t nr_holds = 0;
	int code = EXIT_ABORT, failed = 0, job_loaded = 0, setup_failed = 0;
	json_t *doc = NULL, *table = NULL;

	if (argc < 2) {
		cmd_run_parse_args(&a, 0, NULL, stderr);
		goto out;
	}
	if (cmd_run_parse_args(&a, argc, argv, NULL))
		goto out;
	if (a.help) {
		code = 0;
		goto out;
	}
	if (a.json) {
		if (cmd_json_hold())
			goto out;
		sum.boots = json_array();
	}
	if (job_load_overrides(&job, a.job_path,
			       (const char *const *)a.overrides.v))
		goto out;
	job_loaded = 1;
	if (cache_dir_check())
		goto out;
	/*
	 * Passed-through host disks are checked and held for the whole run,
	 * before anything is built: a refused disk costs nothing. QEMU then
	 * opens the very device that was checked, not a symlink's new target.
	 */
	if (safety_check_job(&job, a.destroy_data_on, a.force, &holds,
			     &nr_holds))
		goto out;
	safety_pin_paths(&job, holds, nr_holds);
	/*
	 * Boots in a folder of this run's own: a bisection on the same
	 * results folder goes on beside it, untouched. Made before the
	 * kernel is built, so a results folder that cannot be written to
	 * costs no build.
	 */
	char *job_dir = results_job_dir(job.results, job.name);
	int rd_failed = rundir_open(&rd, job.results, job_dir);
	free(job_dir);
	if (rd_failed)
		goto out;
	if (pick_kernel(&k, &a, &job, &code))
		goto out;

	if (probe_machine_init(&pm, &job))
		goto out;
	int kvm = pm.kvm;
	const struct clock clock = pm.clock;
	int boots = a.boots ? a.boots : job.runs_min;
	say_run(&k, &job, boots, kvm, &clock);
	setup_failed = boot_topologies(&job, &k, &pm, rd.path, boots,
				       a.keep_images, &sum, &failed);
	print_summary(&sum, &job, &clock);
	/*
	 * Boots that all said ok yet gave no sample to use measured
	 * nothing: a failure, not a result (a failed boot says its own).
	 */
	if (!sum.nr && !failed && !setup_failed && !run_interrupted()) {
		error("no usable sample from %s: the guest sent none that "
		      "was verified and not a warmup",
		      k.commit);
		failed = 1;
	}
	char *dir = results_commit_dir(job.results, job.name, k.commit);
	/* Absolute: what a person pastes from any folder, or a script reads. */
	char *where = absolute_path(dir);
	int stored = file_exists(dir);
	if (sum.nr)
		table = print_table(&sum, &job, dir);
	printf("results: %s\n", stored ? where : "none stored");
	code = run_interrupted() ? EXIT_INTERRUPTED
	       : setup_failed	 ? EXIT_ABORT
	       : failed		 ? 1
				 : 0;
	if (a.json) {
		doc = run_json(&k, &job, kvm, &clock, boots, &sum, table,
			       stored ? where : NULL, code);
		table = NULL;
	}
	free(where);
	free(dir);
out:
	/* A run stopped before its first boot has no document: its error. */
	if (a.json)
		cmd_json_put(doc);
	json_decref(table);
	probe_machine_release(&pm);
	rundir_close(&rd);
	safety_release_all(holds, nr_holds);
	summary_release(&sum);
	free(k.image);
	free(k.commit);
	free(k.build_key);
	if (job_loaded)
		job_release(&job);
	strvec_clear(&a.overrides);
	return code;
}
