/*
 * check_sweep.c: choosing a sweep's commits (every Nth along first-parent
 * history with both ends measured, tags by glob in range order), the sweep
 * state file the store's readers take the commits' order from, which steps
 * are past the job's threshold, the derived bisection job, which commits
 * of a sample are booted and how often (sweep_run.h, over fake
 * operations, here and as rounds at once), and the first-parent walk
 * over a real repository with a merge.
 */
#include "progress.h"
#include "sweep.h"
#include "sweep_run.h"
#include "util.h"

#include <check.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fake id per position: "000...0<i>" in hex, 40 characters. */
static void fake_id(char out[41], unsigned i)
{
	snprintf(out, 41, "%040x", i + 1);
}

static void fake_history(struct strvec *h, unsigned n)
{
	char id[41];
	for (unsigned i = 0; i < n; i++) {
		fake_id(id, i);
		strvec_push(h, id);
	}
}

/* The chosen commits as history positions, "0,3,6". */
static void positions(const struct strvec *picked, struct strbuf *out)
{
	for (size_t i = 0; i < picked->nr; i++) {
		unsigned pos;
		sscanf(picked->v[i], "%x", &pos);
		strbuf_addf(out, "%s%u", i ? "," : "", pos - 1);
	}
}

static const struct {
	unsigned n, every;
	const char *want;
} every_cases[] = {
	{13, 3, "0,3,6,9,12"},	/* the end falls on the step */
	{14, 4, "0,4,8,12,13"}, /* B is added after the last step */
	{13, 4, "0,4,8,12"},
	{4, 1, "0,1,2,3"},
	{5, 10, "0,4"}, /* a step longer than the range: both ends */
	{1, 3, "0"},	/* A == B */
	{0, 3, ""},
};

START_TEST(every_nth_keeps_both_ends)
{
	struct strvec h = STRVEC_INIT, out = STRVEC_INIT;
	struct strbuf got = STRBUF_INIT;

	fake_history(&h, every_cases[_i].n);
	sweep_pick_every(&out, &h, every_cases[_i].every);
	positions(&out, &got);
	ck_assert_msg(!strcmp(got.buf, every_cases[_i].want),
		      "n=%u every=%u: got %s, want %s", every_cases[_i].n,
		      every_cases[_i].every, got.buf, every_cases[_i].want);
	strvec_clear(&h);
	strvec_clear(&out);
	strbuf_release(&got);
}
END_TEST

START_TEST(tags_match_glob_in_range_order)
{
	struct strvec range = STRVEC_INIT, out = STRVEC_INIT,
		      names = STRVEC_INIT;
	struct sweep_tags tags = SWEEP_TAGS_INIT;
	char id[41];

	fake_history(&range, 6);
	/* Tag order is not history order; one tag lies outside the range. */
	fake_id(id, 4);
	sweep_tags_push(&tags, "v6.3", id);
	fake_id(id, 0);
	sweep_tags_push(&tags, "v6.1", id);
	fake_id(id, 2);
	sweep_tags_push(&tags, "nightly-2", id);
	sweep_tags_push(&tags, "v6.2", id); /* two tags, one commit */
	sweep_tags_push(&tags, "v6.2-rc1", id);
	fake_id(id, 99);
	sweep_tags_push(&tags, "v6.9", id);

	sweep_pick_tags(&out, &names, &tags, "v6.[0-9]", &range);
	ck_assert_uint_eq(out.nr, 3);
	ck_assert_uint_eq(names.nr, 3);
	fake_id(id, 0);
	ck_assert_str_eq(out.v[0], id);
	ck_assert_str_eq(names.v[0], "v6.1");
	fake_id(id, 2);
	ck_assert_str_eq(out.v[1], id);
	ck_assert_str_eq(names.v[1], "v6.2");
	fake_id(id, 4);
	ck_assert_str_eq(out.v[2], id);
	ck_assert_str_eq(names.v[2], "v6.3");

	strvec_clear(&out);
	sweep_pick_tags(&out, NULL, &tags, "none*", &range);
	ck_assert_uint_eq(out.nr, 0);
	strvec_clear(&range);
	strvec_clear(&out);
	strvec_clear(&names);
	sweep_tags_release(&tags);
}
END_TEST

#define ID1 "1111111111111111111111111111111111111111"
#define ID2 "2222222222222222222222222222222222222222"

START_TEST(state_json_has_the_scan_format)
{
	struct sweep_state s = SWEEP_STATE_INIT, back = SWEEP_STATE_INIT;
	struct strbuf text = STRBUF_INIT;
	json_t *root, *list;

	sweep_state_add(&s, ID1, "Linux 6.1", "sweep");
	sweep_state_add(&s, ID2, NULL, "step");
	sweep_state_to_json(&s, &text);

	/* The exact shape: {"commits": [{"commit", "subject", "role"}]}. */
	root = json_loads(text.buf, 0, NULL);
	ck_assert_ptr_nonnull(root);
	ck_assert_uint_eq(json_object_size(root), 1);
	list = json_object_get(root, "commits");
	ck_assert_uint_eq(json_array_size(list), 2);
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_array_get(list, 0), "commit")),
			 ID1);
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_array_get(list, 0), "subject")),
			 "Linux 6.1");
	ck_assert_ptr_null(json_object_get(json_array_get(list, 1), "subject"));
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_array_get(list, 1), "role")),
			 "step");
	json_decref(root);

	ck_assert_int_eq(sweep_state_parse(&back, text.buf, "t"), 0);
	ck_assert_uint_eq(back.nr, 2);
	ck_assert_str_eq(back.v[0].commit, ID1);
	ck_assert_str_eq(back.v[0].subject, "Linux 6.1");
	ck_assert_str_eq(back.v[1].commit, ID2);
	ck_assert_ptr_null(back.v[1].subject);
	ck_assert_str_eq(back.v[1].role, "step");
	sweep_state_release(&s);
	sweep_state_release(&back);
	strbuf_release(&text);
}
END_TEST

static const struct {
	const char *text, *error; /* error: a piece of the message, or NULL */
} parse_cases[] = {
	{"{\"commits\": [\"" ID1 "\", {\"commit\": \"" ID2 "\"}]}", NULL},
	{"{\"commits\": []}", NULL},
	{"{\"commits\": {}}", "commits: expected a list"},
	{"{\"commits\": [\"abc\"]}", "commits[0]: expected a full commit id"},
	{"{\"commits\": [{\"subject\": \"x\"}]}", "commits[0]"},
	{"{\"commits\": [", "state.json:1:"},
};

START_TEST(state_parse_names_the_problem)
{
	struct sweep_state s = SWEEP_STATE_INIT;
	struct strbuf err = STRBUF_INIT;
	int rc;

	error_capture(&err);
	rc = sweep_state_parse(&s, parse_cases[_i].text, "state.json");
	error_capture(NULL);
	if (!parse_cases[_i].error) {
		ck_assert_msg(rc == 0, "%s: %s", parse_cases[_i].text, err.buf);
	} else {
		ck_assert_int_eq(rc, -1);
		ck_assert_msg(strstr(err.buf, parse_cases[_i].error),
			      "'%s' lacks '%s'", err.buf,
			      parse_cases[_i].error);
	}
	sweep_state_release(&s);
	strbuf_release(&err);
}
END_TEST

START_TEST(state_save_and_load_round_trip)
{
	char dir[] = "/tmp/check_sweep.XXXXXX";
	struct sweep_state s = SWEEP_STATE_INIT, back = SWEEP_STATE_INIT;
	char *path;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(sweep_state_load(&back, dir), 1); /* none yet */
	sweep_state_add(&s, ID1, "a", "sweep");
	ck_assert_int_eq(sweep_state_save(&s, dir), 0);
	sweep_state_add(&s, ID2, "b", "sweep");
	ck_assert_int_eq(sweep_state_save(&s, dir), 0); /* rewritten */
	path = xstrfmt("%s/sweep-state.json", dir);
	ck_assert(file_exists(path));
	ck_assert_int_eq(sweep_state_load(&back, dir), 0);
	ck_assert_uint_eq(back.nr, 2);
	ck_assert_str_eq(back.v[1].commit, ID2);
	ck_assert_str_eq(back.v[1].subject, "b");
	free(path);
	sweep_state_release(&s);
	sweep_state_release(&back);
	remove_tree(dir);
}
END_TEST

static const struct {
	enum threshold_kind kind;
	double value;
	enum changepoint_kind cp;
	double before, after; /* bytes/s */
	int past;
} threshold_cases[] = {
	{THRESHOLD_PERCENT, 10, CHANGEPOINT_REGRESSION, 300e6, 271e6, 0},
	{THRESHOLD_PERCENT, 10, CHANGEPOINT_REGRESSION, 300e6, 269e6, 1},
	{THRESHOLD_PERCENT, 10, CHANGEPOINT_IMPROVEMENT, 300e6, 340e6, 1},
	{THRESHOLD_PERCENT, 10, CHANGEPOINT_IMPROVEMENT, 300e6, 310e6, 0},
	{THRESHOLD_MBPS, 50, CHANGEPOINT_REGRESSION, 300e6, 240e6, 1},
	{THRESHOLD_MBPS, 50, CHANGEPOINT_REGRESSION, 300e6, 260e6, 0},
	{THRESHOLD_AUTO, 0, CHANGEPOINT_REGRESSION, 300e6, 290e6, 1},
};

START_TEST(steps_past_the_job_threshold)
{
	struct threshold t = {threshold_cases[_i].kind,
			      threshold_cases[_i].value};
	struct changepoint cp = {0};

	cp.kind = threshold_cases[_i].cp;
	cp.before_median = threshold_cases[_i].before;
	cp.after_median = threshold_cases[_i].after;
	cp.change_pct =
		(cp.after_median - cp.before_median) / cp.before_median * 100;
	ck_assert_int_eq(sweep_past_threshold(&t, &cp),
			 threshold_cases[_i].past);
}
END_TEST

/*
 * The demo's sample (v6.1, c3, c9, c12; c6 does not build) at 69 and 17
 * MB/s: with two boots a commit the step is seen only loosely, so c3 and
 * c9 (beside it) ask for a boot more, and nothing else does; with three
 * boots a commit it is decided; a flat sample, or commits at the cap, ask
 * for nothing.
 */
static const struct undecided_case {
	const char *what;
	size_t boots, cap;
	double after; /* MB/s from c9 on */
	size_t nr, at[2];
} undecided_cases[] = {
	{"two boots a commit: c3 and c9", 2, 16, 17, 2, {1, 3}},
	{"three boots a commit: decided", 3, 16, 17, 0, {0, 0}},
	{"no step", 2, 16, 69, 0, {0, 0}},
	{"at the cap", 2, 2, 17, 0, {0, 0}},
};

START_TEST(more_boots_only_where_undecided)
{
	const struct undecided_case *c = &undecided_cases[_i];
	double v[5][3];
	struct changepoint_commit series[5];
	struct changepoint_options opt;
	struct threshold auto_line = {THRESHOLD_AUTO, 0};
	size_t at[5], nr;

	for (size_t i = 0; i < 5; i++) {
		for (size_t b = 0; b < 3; b++)
			v[i][b] = (i < 3 ? 69 : c->after) * 1e6 *
				  (1 + 0.01 * ((double)b - 1) +
				   0.002 * (double)i);
		series[i].values = v[i];
		series[i].n = i == 2 ? 0 : c->boots; /* c6: no build */
	}
	sweep_changepoint_options(&opt, &auto_line);
	ck_assert_int_eq(sweep_undecided(at, &nr, series, 5, &opt, c->cap), 0);
	ck_assert_msg(nr == c->nr, "%s: %zu commits, not %zu", c->what, nr,
		      c->nr);
	for (size_t i = 0; i < nr; i++)
		ck_assert_uint_eq(at[i], c->at[i]);
}
END_TEST

/*
 * A round of more boots asks each undecided commit for one more than the
 * most any of them has: c3 with two boots and c9 with three both reach
 * four; a decided sample asks for no round.
 */
START_TEST(top_up_round_reaches_the_most_plus_one)
{
	double v[5][4];
	struct changepoint_commit series[5];
	struct changepoint_options opt;
	struct threshold auto_line = {THRESHOLD_AUTO, 0};
	static const size_t boots[5] = {2, 2, 0, 3, 2};
	size_t at[5], nr;
	unsigned want = 99;

	for (size_t i = 0; i < 5; i++) {
		for (size_t b = 0; b < 4; b++)
			v[i][b] = (i < 3 ? 69 : 17) * 1e6 *
				  (1 + 0.01 * ((double)b - 1) +
				   0.002 * (double)i);
		series[i].values = v[i];
		series[i].n = boots[i];
	}
	sweep_changepoint_options(&opt, &auto_line);
	ck_assert_int_eq(sweep_top_up_round(at, &nr, &want, series, 5, &opt,
					    16),
			 0);
	ck_assert_uint_eq(nr, 2);
	ck_assert_uint_eq(at[0], 1);
	ck_assert_uint_eq(at[1], 3);
	ck_assert_uint_eq(want, 4);
	for (size_t i = 0; i < 5; i++)
		series[i].n = i == 2 ? 0 : 3;
	ck_assert_int_eq(sweep_top_up_round(at, &nr, &want, series, 5, &opt,
					    16),
			 0);
	ck_assert_uint_eq(nr, 0);
	ck_assert_uint_eq(want, 0);
}
END_TEST

/*
 * The demo's sample over fake operations: five commits at 69 MB/s, then
 * 17 from the fourth on; the third does not build. Each boot of commit i
 * reads as in more_boots_only_where_undecided.
 */
struct fake_sample {
	char ids[5][41];
	size_t nr[5];
	unsigned boots, builds; /* the operations' own */
	unsigned boot_calls, many_calls;
	double v[5][64];
};

static int fake_at(const struct fake_sample *f, const char *commit)
{
	for (int i = 0; i < 5; i++)
		if (!strcmp(f->ids[i], commit))
			return i;
	ck_abort_msg("unknown commit %s", commit);
	return -1;
}

static int sample_build(void *payload, const char *commit,
			struct build_facts *out)
{
	struct fake_sample *f = payload;
	int i = fake_at(f, commit);

	f->builds++;
	snprintf(out->key, sizeof(out->key), "%040x", i + 0x100);
	out->failed = i == 2;
	if (out->failed)
		out->first_error = xstrdup("error: expected ';'");
	return 0;
}

static void boot_one(struct fake_sample *f, int i)
{
	size_t b = f->nr[i];

	ck_assert_uint_lt(b, 64);
	f->v[i][b] = (i < 3 ? 69 : 17) * 1e6 *
		     (1 + 0.01 * ((double)(b % 3) - 1) + 0.002 * (double)i);
	f->nr[i]++;
	f->boots++;
}

static int sample_boot(void *payload, const char *commit,
		       struct boot_facts *out)
{
	struct fake_sample *f = payload;

	f->boot_calls++;
	boot_one(f, fake_at(f, commit));
	out->ok = 1;
	out->samples = 1;
	return 0;
}

static int sample_load(void *payload, const char *commit,
		       struct sample_set *out)
{
	struct fake_sample *f = payload;
	int i = fake_at(f, commit);

	sample_set_copy_values(out, f->v[i], f->nr[i]);
	return 0;
}

static int sample_many(void *payload, const char *const *commits, size_t n,
		       unsigned boots, struct build_facts *builds,
		       struct boot_facts *out)
{
	struct fake_sample *f = payload;

	f->many_calls++;
	for (size_t k = 0; k < n; k++) {
		int i = fake_at(f, commits[k]);
		sample_build(f, commits[k], &builds[k]);
		if (builds[k].failed) {
			out[k].outcome = PROBE_BUILD_FAILED;
			out[k].first_error = xstrdup(builds[k].first_error);
			continue;
		}
		while (f->nr[i] < boots)
			boot_one(f, i);
		out[k].ok = 1;
	}
	return 0;
}

static const struct measure_ops sample_ops = {
	.build = sample_build,
	.boot = sample_boot,
	.load = sample_load,
};

/*
 * Two boots a commit leave the step undecided: the commits beside it
 * (the second and fourth) get more, the others none, the commit that
 * does not build none; here a commit at a time, or (`_i` 1) as rounds
 * at once. Every boot the operations made is counted once.
 */
START_TEST(sample_tops_up_beside_the_step)
{
	char dir[] = "/tmp/check_sweep.XXXXXX";
	struct fake_sample f;
	struct measure_ops ops = sample_ops;
	struct job job;
	struct measure m;
	struct progress progress;
	struct strbuf said = STRBUF_INIT;
	struct sweep_run run;
	struct sweep_state back = SWEEP_STATE_INIT;
	FILE *notes;
	char *notes_path;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	notes_path = xstrfmt("%s/notes", dir);
	notes = fopen(notes_path, "w+");
	ck_assert_ptr_nonnull(notes);
	memset(&f, 0, sizeof(f));
	for (unsigned i = 0; i < 5; i++)
		fake_id(f.ids[i], i);
	if (_i)
		ops.measure_many = sample_many;
	memset(&job, 0, sizeof(job));
	job.runs_max = 8;
	job.threshold.kind = THRESHOLD_AUTO;
	measure_init(&m, &job, &ops, &f);
	progress_init(&progress, notes);
	memset(&run, 0, sizeof(run));
	run.job = &job;
	run.progress = &progress;
	run.m = &m;
	run.dir = dir;
	run.boots = SWEEP_BOOTS_FIRST;
	run.rows = xcalloc(5, sizeof(*run.rows));
	for (size_t i = 0; i < 5; i++) {
		memcpy(run.rows[i].id, f.ids[i], 41);
		run.rows[i].outcome = "ok";
	}
	run.nr_rows = 5;

	ck_assert_int_eq(sweep_sample_measure(&run), 0);
	ck_assert_uint_eq(f.nr[0], 2);
	ck_assert_uint_gt(f.nr[1], 2);
	ck_assert_uint_eq(f.nr[2], 0);
	ck_assert_uint_gt(f.nr[3], 2);
	ck_assert_uint_eq(f.nr[4], 2);
	ck_assert_uint_eq(f.nr[1], f.nr[3]);
	ck_assert_str_eq(run.rows[2].outcome, "build-failure");
	for (size_t i = 0; i < 5; i++)
		ck_assert_uint_eq(run.rows[i].set.nr, f.nr[i]);
	ck_assert_uint_eq(m.counts.boots, f.boots);
	ck_assert_uint_eq(m.counts.builds, 5);
	if (_i)
		ck_assert_uint_eq(f.boot_calls, 0);
	else
		ck_assert_uint_eq(f.many_calls, 0);
	/* The sample in its order, saved for the store's readers. */
	ck_assert_int_eq(sweep_state_load(&back, dir), 0);
	ck_assert_uint_eq(back.nr, 5);
	ck_assert_str_eq(back.v[4].commit, f.ids[4]);
	fflush(notes);
	ck_assert_int_eq(read_file(notes_path, &said), 0);
	ck_assert_msg(strstr(said.buf, "[sweep] a step undecided beside 2 "
				       "commits: 3 boots each"),
		      "%s", said.buf);
	ck_assert_msg(strstr(said.buf, ": build-failure: error: expected ';'"),
		      "%s", said.buf);
	strbuf_release(&said);
	sweep_state_release(&back);
	sweep_run_release(&run);
	measure_release(&m);
	progress_release(&progress);
	fclose(notes);
	free(notes_path);
	remove_tree(dir);
}
END_TEST

START_TEST(derived_bisection_job)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *job = "{\"name\": \"demo\", \"repo\": \"/r\", \"good\": "
			  "\"v6.1\", \"runs\": {\"min\": 3}}";
	char *name = sweep_bisect_job_name("demo", ID1, ID2);
	json_t *root;

	ck_assert_str_eq(name, "demo-bisect-111111111111-222222222222");
	ck_assert_int_eq(sweep_bisect_job_text(&out, job, "job.json", name, ID1,
					       ID2, "/abs/results", 0),
			 0);
	root = json_loads(out.buf, 0, NULL);
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(json_string_value(json_object_get(root, "name")),
			 name);
	ck_assert_str_eq(json_string_value(json_object_get(root, "good")), ID1);
	ck_assert_str_eq(json_string_value(json_object_get(root, "bad")), ID2);
	ck_assert_str_eq(json_string_value(json_object_get(root, "results")),
			 "/abs/results");
	ck_assert_str_eq(json_string_value(json_object_get(root, "repo")),
			 "/r");
	ck_assert_int_eq(json_integer_value(json_object_get(
				 json_object_get(root, "runs"), "min")),
			 3);
	json_decref(root);

	error_capture(&err);
	ck_assert_int_eq(sweep_bisect_job_text(&out, "[1]", "job.json", name,
					       ID1, ID2, "/r", 0),
			 -1);
	error_capture(NULL);
	ck_assert(strstr(err.buf, "job.json: expected a JSON object"));
	free(name);
	strbuf_release(&out);
	strbuf_release(&err);
}
END_TEST

/*
 * A repository: A - B - M - D on the first-parent line, M merging a side
 * branch S1 - S2 forked at A. Made with git (the fixture's own tool).
 */
static char repo[] = "/tmp/check_sweep_repo.XXXXXX";

static void repo_setup(void)
{
	char *cmd;

	strcpy(repo, "/tmp/check_sweep_repo.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(repo));
	cmd = xstrfmt(
		"cd %s && export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t "
		"GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t && "
		"git init -q -b main . && "
		"c() { echo $1 >f$1 && git add f$1 && "
		"GIT_AUTHOR_DATE=\"2022-01-01T00:0$2:00Z\" "
		"GIT_COMMITTER_DATE=\"2022-01-01T00:0$2:00Z\" "
		"git commit -qm $1; } && "
		"c A 1 && git tag A && git checkout -q -b side && c S1 2 && "
		"c S2 3 && git tag -a -m s v-side && git checkout -q main && "
		"c B 4 && git tag B && "
		"GIT_COMMITTER_DATE=2022-01-01T00:05:00Z git merge -q --no-ff "
		"-m M side && git tag M && c D 6 && git tag D",
		repo);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	git_libgit2_init();
}

static void repo_teardown(void)
{
	git_libgit2_shutdown();
	remove_tree(repo);
}

/* The id of a tag in the test repository. */
static void rev(const char *name, char out[41])
{
	char *cmd = xstrfmt("git -C %s rev-parse '%s^{commit}'", repo, name);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(fscanf(p, "%40s", out), 1);
	pclose(p);
	free(cmd);
}

START_TEST(first_parents_skip_merged_branches)
{
	struct strvec out = STRVEC_INIT, all = STRVEC_INIT;
	char a[41], b[41], m[41], d[41], s1[41], s2[41];

	rev("A", a);
	rev("B", b);
	rev("M", m);
	rev("D", d);
	rev("side~1", s1);
	rev("side", s2);
	ck_assert_int_eq(sweep_first_parents(&out, repo, a, d), 0);
	ck_assert_uint_eq(out.nr, 4);
	ck_assert_str_eq(out.v[0], a);
	ck_assert_str_eq(out.v[1], b);
	ck_assert_str_eq(out.v[2], m);
	ck_assert_str_eq(out.v[3], d);

	/* The whole range holds the side branch, parents before children. */
	ck_assert_int_eq(sweep_range_commits(&all, repo, a, d), 0);
	ck_assert_uint_eq(all.nr, 6);
	ck_assert_str_eq(all.v[0], a);
	ck_assert_str_eq(all.v[5], d);
	for (size_t i = 0; i < all.nr; i++)
		if (!strcmp(all.v[i], s2)) {
			ck_assert(i > 0 && strcmp(all.v[i - 1], s1) == 0);
			ck_assert(strcmp(all.v[i + 1], m) == 0 ||
				  strcmp(all.v[i + 2], m) == 0);
		}
	strvec_clear(&out);
	strvec_clear(&all);
}
END_TEST

START_TEST(first_parents_refuse_a_non_ancestor)
{
	struct strvec out = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	char b[41], s2[41];

	rev("B", b);
	rev("side", s2);
	error_capture(&err);
	ck_assert_int_eq(sweep_first_parents(&out, repo, s2, b), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, "is not an ancestor of"), "%s", err.buf);
	ck_assert_uint_eq(out.nr, 0);
	strvec_clear(&out);
	strbuf_release(&err);
}
END_TEST

START_TEST(tags_are_listed_peeled)
{
	struct sweep_tags tags = SWEEP_TAGS_INIT;
	struct strvec range = STRVEC_INIT, out = STRVEC_INIT;
	char a[41], s2[41], d[41];

	rev("A", a);
	rev("side", s2);
	rev("D", d);
	ck_assert_int_eq(sweep_list_tags(&tags, repo), 0);
	ck_assert_uint_eq(tags.nr, 5);
	ck_assert_int_eq(sweep_range_commits(&range, repo, a, d), 0);
	/* The annotated tag on the merged branch counts; order is history. */
	sweep_pick_tags(&out, NULL, &tags, "v-*", &range);
	ck_assert_uint_eq(out.nr, 1);
	ck_assert_str_eq(out.v[0], s2);
	strvec_clear(&out);
	sweep_pick_tags(&out, NULL, &tags, "[AD]", &range);
	ck_assert_uint_eq(out.nr, 2);
	ck_assert_str_eq(out.v[0], a);
	ck_assert_str_eq(out.v[1], d);
	sweep_tags_release(&tags);
	strvec_clear(&range);
	strvec_clear(&out);
}
END_TEST

static Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("pure");
	TCase *git = tcase_create("repository");

	tcase_add_loop_test(tc, every_nth_keeps_both_ends, 0,
			    ARRAY_SIZE(every_cases));
	tcase_add_test(tc, tags_match_glob_in_range_order);
	tcase_add_test(tc, state_json_has_the_scan_format);
	tcase_add_loop_test(tc, state_parse_names_the_problem, 0,
			    ARRAY_SIZE(parse_cases));
	tcase_add_test(tc, state_save_and_load_round_trip);
	tcase_add_loop_test(tc, steps_past_the_job_threshold, 0,
			    ARRAY_SIZE(threshold_cases));
	tcase_add_test(tc, derived_bisection_job);
	tcase_add_loop_test(tc, more_boots_only_where_undecided, 0,
			    ARRAY_SIZE(undecided_cases));
	tcase_add_test(tc, top_up_round_reaches_the_most_plus_one);
	tcase_add_loop_test(tc, sample_tops_up_beside_the_step, 0, 2);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(git, repo_setup, repo_teardown);
	tcase_add_test(git, first_parents_skip_merged_branches);
	tcase_add_test(git, first_parents_refuse_a_non_ancestor);
	tcase_add_test(git, tags_are_listed_peeled);
	tcase_set_timeout(git, 30);
	suite_add_tcase(s, git);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sweep_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
