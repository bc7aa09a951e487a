/*
 * check_state.c: the bisection state (state.c): what a resumed run reads
 * back is what the killed run wrote, a corrupt file is refused by name and
 * left in place with its previous copy, a second run is kept out by the
 * lock (which a forked build does not keep), and the log reads like `git bisect log`.
 * The answer's pairs under way come back as they were kept.
 */
#include "run.h"
#include "state.h"
#include "util.h"

#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/check_state.XXXXXX";

static void setup(void)
{
	strcpy(tmpdir, "/tmp/check_state.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	remove_tree(tmpdir);
}

#define ID_GOOD "1111111111111111111111111111111111111111"
#define ID_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define ID_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define ID_BAD "9999999999999999999999999999999999999999"

/* A state as a run leaves it after the endpoints and two steps. */
static void fill(struct bisect_state *s)
{
	struct state_probe *p;

	state_init(s);
	s->job_hash = xstrdup("0123456789abcdef0123456789abcdef01234567");
	s->job_name = xstrdup("demo");
	s->good_rev = xstrdup("v6.1");
	s->bad_rev = xstrdup("demo-large");
	strcpy(s->good, ID_GOOD);
	strcpy(s->bad, ID_BAD);
	strvec_push(&s->candidates, ID_BAD);
	strvec_push(&s->candidates, ID_B);
	strvec_push(&s->candidates, ID_A);

	p = state_add_probe(s, ID_GOOD, ROLE_GOOD);
	p->subject = xstrdup("Linux 6.1");
	p->build_key = xstrdup("key-good");
	p->outcome = PROBE_UNDECIDED; /* measured, no verdict */
	p->boots = 3;
	p->samples = 9;
	p = state_add_probe(s, ID_BAD, ROLE_BAD);
	p->subject = xstrdup("virtio_blk: comment");
	p->build_key = xstrdup("key-bad");
	p->cached = 1;
	p->outcome = PROBE_SLOW;
	p->mark = BISECT_BAD;
	p->v.verdict = xstrdup("bad");
	p->v.good_median = 205e6;
	p->v.good_stddev_pct = 1.5;
	p->v.median = 21e6;
	p->v.stddev_pct = 2.5;
	p->v.effect_pct = -89.76;
	p->v.p_value = 0.0022;
	p->v.good_boots = 5;
	p->v.boots = 4;
	state_add_mark(s, ID_BAD, BISECT_BAD);
	state_add_mark(s, ID_GOOD, BISECT_GOOD);
	p = state_add_probe(s, ID_A, ROLE_STEP);
	p->subject = xstrdup("block: does not build");
	p->outcome = PROBE_BUILD_FAILED;
	p->mark = BISECT_SKIP;
	p->log = xstrdup("/tmp/build.log");
	p->first_error = xstrdup("block/foo.c:3: error: expected ';'");
	state_add_mark(s, ID_A, BISECT_SKIP);
}

START_TEST(json_round_trip_keeps_every_probe_and_mark)
{
	struct bisect_state s, back;
	json_t *j;

	fill(&s);
	s.unit = xstrdup("MB/s in virtual time (icount, shift 4)");
	/* The skip re-marked by the answer's pairs, the steps in doubt. */
	s.marks[2].by_pairs = 1;
	s.doubt_from = 2;
	memcpy(s.stand_in, ID_A, 41);
	j = state_to_json(&s);
	ck_assert_int_eq(state_from_json(&back, j, "test"), 0);
	json_decref(j);

	ck_assert_str_eq(back.job_hash, s.job_hash);
	ck_assert_str_eq(back.unit, s.unit);
	ck_assert_str_eq(back.good, ID_GOOD);
	ck_assert_str_eq(back.bad, ID_BAD);
	ck_assert_str_eq(back.merge_base, "");
	ck_assert_str_eq(back.stand_in, ID_A);
	ck_assert_uint_eq(back.candidates.nr, 3);
	ck_assert_str_eq(back.candidates.v[2], ID_A);
	ck_assert_uint_eq(back.nr_probes, 3);
	ck_assert_uint_eq(back.nr_marks, 3);
	for (size_t i = 0; i < 3; i++) {
		ck_assert_str_eq(back.marks[i].commit, s.marks[i].commit);
		ck_assert_int_eq(back.marks[i].mark, s.marks[i].mark);
		ck_assert_int_eq(back.marks[i].by_pairs, i == 2);
		ck_assert_str_eq(back.probes[i].commit, s.probes[i].commit);
		ck_assert_int_eq(back.probes[i].role, s.probes[i].role);
		ck_assert_int_eq(back.probes[i].outcome, s.probes[i].outcome);
		ck_assert_int_eq(back.probes[i].mark, s.probes[i].mark);
	}
	/* Verdict figures come back exactly; a probe without one has none. */
	ck_assert_ptr_null(back.probes[0].v.verdict);
	ck_assert_str_eq(back.probes[1].v.verdict, "bad");
	ck_assert(back.probes[1].v.median == 21e6);
	ck_assert(back.probes[1].v.p_value == 0.0022);
	ck_assert_uint_eq(back.probes[1].v.good_boots, 5);
	ck_assert_int_eq(back.probes[1].cached, 1);
	ck_assert_str_eq(back.probes[2].first_error,
			 "block/foo.c:3: error: expected ';'");
	ck_assert_ptr_null(back.probes[2].build_key);
	ck_assert_int_eq(back.status, STATE_RUNNING);
	ck_assert(isnan(back.confidence));
	ck_assert_int_eq(back.doubt_from, 2);
	state_release(&s);
	state_release(&back);
	/* A state without doubt says nothing of it, and reads back -1. */
	fill(&s);
	j = state_to_json(&s);
	ck_assert_ptr_null(json_object_get(j, "doubt_from"));
	/* Nor of a step standing in for bad, when bad stands for itself. */
	ck_assert_ptr_null(json_object_get(j, "stand_in"));
	ck_assert_int_eq(state_from_json(&back, j, "test"), 0);
	ck_assert_int_eq(back.doubt_from, -1);
	ck_assert_str_eq(back.stand_in, "");
	json_decref(j);
	state_release(&s);
	state_release(&back);
}
END_TEST

/*
 * The answer's pairs under way come back as they were kept, so a resumed
 * run boots only those missing; a state without them (older ones) reads
 * back none, and the run takes them anew.
 */
START_TEST(confirm_round_trip_keeps_the_pairs_under_way)
{
	struct bisect_state s, back;
	struct state_confirm_parent *p;
	json_t *j;

	fill(&s);
	strcpy(s.confirm.culprit, ID_A);
	s.confirm.culprit_from = 3;
	p = state_confirm_add_parent(&s.confirm, ID_B, 2);
	state_confirm_add_pair(p, 2, 4); /* the culprit's 4th: a half pair */
	state_confirm_add_pair(p, 3, 5);
	/* A merge's second parent, outside the range, its pairs not begun. */
	state_confirm_add_parent(&s.confirm,
				 "cccccccccccccccccccccccccccccccccccccccc", 7);
	j = state_to_json(&s);
	ck_assert_int_eq(state_from_json(&back, j, "test"), 0);
	json_decref(j);
	ck_assert_str_eq(back.confirm.culprit, ID_A);
	ck_assert_uint_eq(back.confirm.culprit_from, 3);
	ck_assert_uint_eq(back.confirm.nr_parents, 2);
	ck_assert_str_eq(back.confirm.parents[0].parent, ID_B);
	ck_assert_uint_eq(back.confirm.parents[0].parent_from, 2);
	ck_assert_uint_eq(back.confirm.parents[0].nr_pairs, 2);
	ck_assert_uint_eq(back.confirm.parents[0].pairs[0].parent, 2);
	ck_assert_uint_eq(back.confirm.parents[0].pairs[0].culprit, 4);
	ck_assert_uint_eq(back.confirm.parents[0].pairs[1].parent, 3);
	ck_assert_uint_eq(back.confirm.parents[0].pairs[1].culprit, 5);
	ck_assert_str_eq(back.confirm.parents[1].parent,
			 "cccccccccccccccccccccccccccccccccccccccc");
	ck_assert_uint_eq(back.confirm.parents[1].parent_from, 7);
	ck_assert_uint_eq(back.confirm.parents[1].nr_pairs, 0);
	state_release(&back);
	/* None under way: no key, and none read back. */
	state_confirm_clear(&s.confirm);
	j = state_to_json(&s);
	ck_assert_ptr_null(json_object_get(j, "confirm"));
	ck_assert_int_eq(state_from_json(&back, j, "test"), 0);
	json_decref(j);
	ck_assert_str_eq(back.confirm.culprit, "");
	ck_assert_uint_eq(back.confirm.nr_parents, 0);
	state_release(&back);
	state_release(&s);
}
END_TEST

/*
 * The revert check's record (its pairs kept after each, the record's
 * "culprit" the bad endpoint and its one "parent" the revert) and the
 * commits never named for their parent's image, read back as written;
 * a conflicting revert keeps its files and no pairs.
 */
START_TEST(revert_round_trip_keeps_its_pairs)
{
	struct bisect_state s, back;
	struct state_confirm_parent *p;
	json_t *j;

	fill(&s);
	strcpy(s.revert.culprit, ID_A);
	strcpy(s.revert.commit, "dddddddddddddddddddddddddddddddddddddddd");
	strcpy(s.revert.pairs.culprit, ID_B);
	s.revert.pairs.culprit_from = 4;
	p = state_confirm_add_parent(&s.revert.pairs, s.revert.commit, 0);
	state_confirm_add_pair(p, 0, 4);
	state_confirm_add_pair(p, 1, 5);
	strvec_push(&s.same_image, ID_B);
	strvec_push(&s.between, ID_A);
	state_add_change(&s, ID_A, ID_B)->pairs = 3;
	state_add_change(&s, ID_B, ID_A)->faster = 1;
	s.changes[1].confidence = 0.97;
	s.changes_sought = 1;
	j = state_to_json(&s);
	ck_assert_int_eq(state_from_json(&back, j, "test"), 0);
	json_decref(j);
	ck_assert_str_eq(back.revert.culprit, ID_A);
	ck_assert_str_eq(back.revert.commit, s.revert.commit);
	ck_assert_str_eq(back.revert.pairs.culprit, ID_B);
	ck_assert_uint_eq(back.revert.pairs.culprit_from, 4);
	ck_assert_uint_eq(back.revert.pairs.nr_parents, 1);
	ck_assert_uint_eq(back.revert.pairs.parents[0].nr_pairs, 2);
	ck_assert_uint_eq(back.revert.pairs.parents[0].pairs[1].parent, 1);
	ck_assert_uint_eq(back.revert.pairs.parents[0].pairs[1].culprit, 5);
	ck_assert_uint_eq(back.same_image.nr, 1);
	ck_assert_str_eq(back.same_image.v[0], ID_B);
	ck_assert_uint_eq(back.between.nr, 1);
	ck_assert_str_eq(back.between.v[0], ID_A);
	ck_assert_uint_eq(back.nr_changes, 2);
	ck_assert_str_eq(back.changes[0].commit, ID_A);
	ck_assert_str_eq(back.changes[0].parent, ID_B);
	ck_assert_uint_eq(back.changes[0].pairs, 3);
	ck_assert(isnan(back.changes[0].confidence) && !back.changes[0].faster);
	ck_assert(back.changes[1].faster);
	ck_assert_double_eq_tol(back.changes[1].confidence, 0.97, 1e-12);
	ck_assert(back.changes_sought);
	state_release(&back);
	/* A revert that does not apply: its files, no commit, no pairs. */
	state_revert_clear(&s.revert);
	strcpy(s.revert.culprit, ID_A);
	strvec_push(&s.revert.conflicts, "block/blk-mq.c");
	j = state_to_json(&s);
	ck_assert_int_eq(state_from_json(&back, j, "test"), 0);
	json_decref(j);
	ck_assert_str_eq(back.revert.commit, "");
	ck_assert_uint_eq(back.revert.conflicts.nr, 1);
	ck_assert_str_eq(back.revert.conflicts.v[0], "block/blk-mq.c");
	ck_assert_uint_eq(back.revert.pairs.nr_parents, 0);
	state_release(&back);
	/* None begun: no key. */
	state_revert_clear(&s.revert);
	strvec_clear(&s.same_image);
	strvec_clear(&s.between);
	s.nr_changes = 0;
	s.changes_sought = 0;
	j = state_to_json(&s);
	ck_assert_ptr_null(json_object_get(j, "revert"));
	ck_assert_ptr_null(json_object_get(j, "same_image"));
	ck_assert_ptr_null(json_object_get(j, "between"));
	ck_assert_ptr_null(json_object_get(j, "changes"));
	json_decref(j);
	state_release(&s);
}
END_TEST

START_TEST(save_keeps_previous_copy_and_load_reads_last)
{
	struct bisect_state s, back;
	char *path = state_path(tmpdir, "demo");
	char *prev = xstrfmt("%s.prev", path);
	struct bisect_state p;

	fill(&s);
	ck_assert_int_eq(state_load(&back, path), 1); /* fresh start */
	state_release(&back);
	ck_assert_int_eq(mkdir_p(tmpdir, 0777), 0);
	ck_assert_int_eq(state_save(&s, path), 0);
	ck_assert(!file_exists(prev));
	state_add_mark(&s, ID_B, BISECT_GOOD);
	s.status = STATE_DONE;
	strcpy(s.culprit, ID_BAD);
	s.confidence = 0.97;
	ck_assert_int_eq(state_save(&s, path), 0);

	ck_assert_int_eq(state_load(&back, path), 0);
	ck_assert_uint_eq(back.nr_marks, 4);
	ck_assert_int_eq(back.status, STATE_DONE);
	ck_assert_str_eq(back.culprit, ID_BAD);
	ck_assert(fabs(back.confidence - 0.97) < 1e-12);
	ck_assert_ptr_nonnull(back.updated);

	/* The .prev copy is the state before the last save. */
	ck_assert_int_eq(state_load(&p, prev), 0);
	ck_assert_uint_eq(p.nr_marks, 3);
	ck_assert_int_eq(p.status, STATE_RUNNING);
	state_release(&p);
	state_release(&s);
	state_release(&back);
	free(path);
	free(prev);
}
END_TEST

/* Files a crash, a disk error or a hand edit can leave. */
static const char *const corrupt[] = {
	"",
	"{\"version\": 1, \"job_hash\": \"x\", \"probes\": [",
	"[1, 2]",
	"{\"version\": 7}",
	/* A version past unsigned's range is not version 1 cut short. */
	"{\"version\":4294967297,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD "\",\"merge_base\":\"\",\"status\":"
	"\"running\",\"culprit\":\"\",\"probes\":[],\"marks\":[]}",
	/* A mark that the engine cannot take. */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"probes\":[],\"marks\":[{\"commit\":\"" ID_A
	"\",\"mark\":\"maybe\"}]}",
	/* A probe in a role no bisection gives, and one of no known end. */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"probes\":[{\"commit\":\"" ID_A
	"\",\"role\":\"referee\"}],\"marks\":[]}",
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"probes\":[{\"commit\":\"" ID_A "\",\"role\":\"step\","
	"\"outcome\":\"melted\"}],\"marks\":[]}",
	/* A commit id that is not one. */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"v6.1\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"probes\":[],\"marks\":[]}",
	/* A mark for a commit that is not in the bisection (nor the repo). */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"candidates\":[\"" ID_BAD "\",\"" ID_A "\"],\"probes\":[],"
	"\"marks\":[{\"commit\":\"" ID_B "\",\"mark\":\"good\"}]}",
	/* A step standing in for bad that is not in the range, or no id. */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"candidates\":[\"" ID_BAD "\",\"" ID_A "\"],\"probes\":[],"
	"\"marks\":[],\"stand_in\":\"" ID_B "\"}",
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"candidates\":[\"" ID_BAD "\",\"" ID_A "\"],\"probes\":[],"
	"\"marks\":[],\"stand_in\":\"\"}",
	/* The steps in doubt from past the last mark. */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"candidates\":[],\"probes\":[],\"marks\":[],\"doubt_from\":3}",
	/* The answer's pairs under way: a pair that is not two places, */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"candidates\":[\"" ID_BAD "\",\"" ID_A "\"],\"probes\":[],"
	"\"marks\":[],\"confirm\":{\"culprit\":\"" ID_A "\","
	"\"culprit_from\":1,\"parents\":[{\"parent\":\"" ID_B "\","
	"\"parent_from\":1,\"pairs\":[[1,-2]]}]}}",
	/* a count of boots that is not one, */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"candidates\":[\"" ID_BAD "\",\"" ID_A "\"],\"probes\":[],"
	"\"marks\":[],\"confirm\":{\"culprit\":\"" ID_A "\","
	"\"culprit_from\":4294967296,\"parents\":[]}}",
	/* a culprit that is not a commit of the bisection. */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"candidates\":[\"" ID_BAD "\",\"" ID_A "\"],\"probes\":[],"
	"\"marks\":[],\"confirm\":{\"culprit\":\"" ID_B "\","
	"\"culprit_from\":1,\"parents\":[]}}",
	/* The revert check: pairs that are not of its revert, */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"done\",\"culprit\":\"\","
	"\"candidates\":[],\"probes\":[],\"marks\":[],"
	"\"revert\":{\"culprit\":\"" ID_A "\",\"commit\":\"" ID_B "\","
	"\"conflicts\":[],\"pairs\":{\"culprit\":\"" ID_BAD "\","
	"\"culprit_from\":1,\"parents\":[{\"parent\":\"" ID_A "\","
	"\"parent_from\":0,\"pairs\":[]}]}}}",
	/* a conflict that is not a file name, */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"done\",\"culprit\":\"\","
	"\"candidates\":[],\"probes\":[],\"marks\":[],"
	"\"revert\":{\"culprit\":\"" ID_A "\",\"commit\":\"\","
	"\"conflicts\":[7]}}",
	/* and a commit id that is not one. */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"done\",\"culprit\":\"\","
	"\"candidates\":[],\"probes\":[],\"marks\":[],"
	"\"revert\":{\"culprit\":\"" ID_A "\",\"commit\":\"HEAD\","
	"\"conflicts\":[]}}",
	/* A mark by someone other than the pairs. */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"running\",\"culprit\":\"\","
	"\"candidates\":[],\"probes\":[],\"marks\":[{\"commit\":\"" ID_BAD
	"\",\"mark\":\"bad\",\"by\":\"steps\"}]}",
	/* A culprit outside the range. */
	"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
	"\",\"bad\":\"" ID_BAD
	"\",\"merge_base\":\"\",\"status\":\"done\",\"culprit\":\"" ID_B
	"\",\"candidates\":[\"" ID_BAD "\",\"" ID_A "\"],\"probes\":[],"
	"\"marks\":[]}",
};

START_TEST(corrupt_file_is_refused_by_name_and_kept)
{
	char *path = state_path(tmpdir, "demo");
	struct strbuf err = STRBUF_INIT, after = STRBUF_INIT;
	struct bisect_state s;
	const char *text = corrupt[_i];

	ck_assert_int_eq(mkdir_p(tmpdir, 0777), 0);
	{
		char *dir = xstrfmt("%s/demo", tmpdir);
		ck_assert_int_eq(mkdir_p(dir, 0777), 0);
		free(dir);
	}
	ck_assert_int_eq(write_file_atomic(path, text, strlen(text)), 0);
	error_capture(&err);
	ck_assert_int_eq(state_load(&s, path), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, path), "message '%s' names no file",
		      err.buf);
	/* One line, and no .prev named that is not there. */
	ck_assert_msg(!strchr(err.buf, '\n'), "several lines: %s", err.buf);
	ck_assert_msg(strstr(err.buf, "there is no previous copy"), "%s",
		      err.buf);
	ck_assert_int_eq(read_file(path, &after), 0);
	ck_assert_str_eq(after.buf, text);
	ck_assert_uint_eq(s.nr_probes, 0);
	state_release(&s);
	strbuf_release(&err);
	strbuf_release(&after);
	free(path);
}
END_TEST

/* No candidates yet (a run killed early): the endpoints' marks load. */
START_TEST(marks_of_the_endpoints_need_no_candidates)
{
	const char *text =
		"{\"version\":1,\"job_hash\":\"h\",\"good\":\"" ID_GOOD
		"\",\"bad\":\"" ID_BAD "\",\"merge_base\":\"\",\"status\":"
		"\"running\",\"culprit\":\"\",\"probes\":[],\"marks\":["
		"{\"commit\":\"" ID_GOOD "\",\"mark\":\"good\"}]}";
	json_t *root = json_loads(text, 0, NULL);
	struct bisect_state s;

	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(state_from_json(&s, root, "x.json"), 0);
	ck_assert_uint_eq(s.nr_marks, 1);
	state_release(&s);
	json_decref(root);
}
END_TEST

/*
 * With a previous copy that loads, the message says where it is; one
 * that is spoiled too is not offered (it was).
 */
START_TEST(corrupt_file_points_at_the_previous_copy)
{
	char *dir = xstrfmt("%s/demo", tmpdir);
	char *path = state_path(tmpdir, "demo");
	char *prev = xstrfmt("%s.prev", path);
	struct strbuf err = STRBUF_INIT;
	struct bisect_state s;

	ck_assert_int_eq(mkdir_p(dir, 0777), 0);
	fill(&s);
	ck_assert_int_eq(state_save(&s, path), 0);
	ck_assert_int_eq(state_save(&s, path), 0);
	state_release(&s);
	ck_assert_int_eq(write_file_atomic(path, "{", 1), 0);
	error_capture(&err);
	ck_assert_int_eq(state_load(&s, path), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, "the previous state is in") &&
			      strstr(err.buf, prev),
		      "%s", err.buf);
	state_release(&s);
	ck_assert_int_eq(write_file_atomic(prev, "{}", 2), 0);
	strbuf_reset(&err);
	error_capture(&err);
	ck_assert_int_eq(state_load(&s, path), -1);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, "is spoiled too") &&
			      !strstr(err.buf, "the previous state is in"),
		      "%s", err.buf);
	state_release(&s);
	strbuf_release(&err);
	free(dir);
	free(path);
	free(prev);
}
END_TEST

START_TEST(second_run_is_locked_out_with_the_holders_pid_and_host)
{
	struct state_lock a = STATE_LOCK_INIT, b = STATE_LOCK_INIT;
	struct strbuf err = STRBUF_INIT;
	char *dir = xstrfmt("%s/results/demo", tmpdir);
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	/* On a shared results folder, which machine holds it matters. */
	char *want = xstrfmt("in use by pid %ld on %s", (long)getpid(), host);

	ck_assert_int_eq(state_lock(&a, tmpdir, dir), 0);
	error_capture(&err);
	ck_assert_int_eq(state_lock(&b, tmpdir, dir), -2);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, want), "got '%s'", err.buf);
	ck_assert(strstr(err.buf, dir));
	state_unlock(&a);
	/* Released: the next run gets in. */
	ck_assert_int_eq(state_lock(&b, tmpdir, dir), 0);
	state_unlock(&b);
	strbuf_release(&err);
	free(dir);
	free(want);
}
END_TEST

/*
 * A build forked beside a boot (run_fork) outlives a SIGKILLed harness
 * for a moment; the lock is the harness's alone, so the rerun gets in
 * while that child still runs.
 */
START_TEST(forked_child_does_not_keep_the_lock)
{
	struct state_lock a = STATE_LOCK_INIT, b = STATE_LOCK_INIT;
	char *dir = xstrfmt("%s/results/demo", tmpdir);
	int code, ready[2];
	char c;
	pid_t child;

	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(state_lock(&a, tmpdir, dir), 0);
	child = run_fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		/* Check's SIGTERM handler would kill this test's group. */
		signal(SIGTERM, SIG_DFL);
		/* run_fork has returned: the child's start is over. */
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		sleep(30);
		_exit(0);
	}
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	close(ready[0]);
	close(ready[1]);
	state_unlock(&a);
	ck_assert_int_eq(run_poll(child, &code), 0);
	ck_assert_int_eq(state_lock(&b, tmpdir, dir), 0);
	state_unlock(&b);
	run_kill(child);
	free(dir);
}
END_TEST

START_TEST(log_reads_like_git_bisect_log)
{
	struct bisect_state s;
	struct strbuf out = STRBUF_INIT;
	const char *bad, *good, *skip;

	fill(&s);
	s.status = STATE_DONE;
	strcpy(s.culprit, ID_BAD);
	s.unit = xstrdup("MB/s in virtual time (icount, shift 4)");
	state_log(&s, &out);
	ck_assert_msg(!strncmp(out.buf, "git bisect start '" ID_BAD "' '" ID_GOOD
				     "'\n",
			       strlen("git bisect start '" ID_BAD "' '" ID_GOOD
				      "'\n")),
		      "%s", out.buf);
	bad = strstr(out.buf, "# bad: [" ID_BAD "] virtio_blk: comment\n"
			      "git bisect bad " ID_BAD "\n");
	good = strstr(out.buf, "# good: [" ID_GOOD "] Linux 6.1\n"
			       "git bisect good " ID_GOOD "\n");
	skip = strstr(out.buf, "git bisect skip " ID_A "\n");
	ck_assert_msg(bad && good && skip, "%s", out.buf);
	/* In the order the marks were given. */
	ck_assert(bad < good && good < skip);
	/* The figures behind the bad mark, and why A was skipped. */
	ck_assert_msg(strstr(out.buf, "21.0 MB/s") &&
			      strstr(out.buf, "205.0 MB/s") &&
			      strstr(out.buf, "-89.8%"),
		      "%s", out.buf);
	/* And what those MB/s are, said once after the start. */
	ck_assert_msg(strstr(out.buf, "'\n# figures in MB/s in virtual time "
				      "(icount, shift 4)\n"),
		      "%s", out.buf);
	ck_assert(strstr(out.buf, "build-failure: block/foo.c:3"));
	ck_assert(strstr(out.buf, "# first bad commit: [" ID_BAD "]"));
	/* Every line is a command git bisect replay takes, or a comment. */
	for (char *l = out.buf; *l; l = strchr(l, '\n') + 1)
		ck_assert(!strncmp(l, "# ", 2) || !strncmp(l, "git bisect ", 11));
	state_release(&s);
	strbuf_release(&out);
}
END_TEST

START_TEST(inconclusive_log_lists_the_suspects)
{
	struct bisect_state s;
	struct strbuf out = STRBUF_INIT;

	fill(&s);
	s.status = STATE_INCONCLUSIVE;
	strvec_push(&s.suspects, ID_A);
	strvec_push(&s.suspects, ID_B);
	state_log(&s, &out);
	ck_assert(strstr(out.buf, "possible first bad commit: [" ID_A "] "
				  "block: does not build"));
	ck_assert(strstr(out.buf, "possible first bad commit: [" ID_B "]"));
	ck_assert(!strstr(out.buf, "# first bad commit"));
	state_release(&s);
	strbuf_release(&out);
}
END_TEST

START_TEST(lock_of_another_host_holds_across_hosts)
{
	struct state_lock a = STATE_LOCK_INIT;
	struct strbuf err = STRBUF_INIT, left = STRBUF_INIT;
	char *dir = xstrfmt("%s/results/shared", tmpdir);
	char *lock = xstrfmt("%s/.lock", dir);
	char host[256] = "", *mine;

	gethostname(host, sizeof(host) - 1);
	ck_assert_int_eq(mkdir_p(dir, 0755), 0);
	/* A run of another host, on a file system whose flock it does not
	   share: its name in the file keeps this host out. */
	ck_assert_int_eq(write_file_atomic(lock, "4242 node7\n", 11), 0);
	error_capture(&err);
	ck_assert_int_eq(state_lock(&a, tmpdir, dir), -2);
	error_capture(NULL);
	ck_assert_msg(strstr(err.buf, "in use by pid 4242 on node7") &&
			      strstr(err.buf, lock),
		      "got '%s'", err.buf);
	/* A run of this host killed long ago: its flock died with it. */
	mine = xstrfmt("2147483646 %s\n", host);
	ck_assert_int_eq(write_file_atomic(lock, mine, strlen(mine)), 0);
	ck_assert_int_eq(state_lock(&a, tmpdir, dir), 0);
	/* An ended run leaves no owner behind. */
	state_unlock(&a);
	ck_assert_int_eq(read_file(lock, &left), 0);
	ck_assert_uint_eq(left.len, 0);
	strbuf_release(&left);
	strbuf_release(&err);
	free(mine);
	free(lock);
	free(dir);
}
END_TEST

/*
 * A run killed with SIGKILL leaves its flock to a child caught between
 * fork and exec until that child dies too, a moment later: the same
 * command run again at once waits for it, where it said "in use by" the
 * dead run (resume-everywhere saw it at one kill of 29).
 */
START_TEST(lock_of_a_dead_run_waits_for_its_dying_child)
{
	struct state_lock a = STATE_LOCK_INIT;
	char *dir = xstrfmt("%s/results/killed", tmpdir);
	char *lock = xstrfmt("%s/.lock", dir);
	char host[256] = "", *dead;
	int ready[2];
	char c;

	gethostname(host, sizeof(host) - 1);
	ck_assert_int_eq(mkdir_p(dir, 0755), 0);
	dead = xstrfmt("2147483646 %s\n", host);
	ck_assert_int_eq(write_file_atomic(lock, dead, strlen(dead)), 0);
	ck_assert_int_eq(pipe(ready), 0);
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (!child) {
		int fd = open(lock, O_RDWR);
		if (fd < 0 || flock(fd, LOCK_EX))
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		usleep(300 * 1000);
		_exit(0);
	}
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	close(ready[0]);
	ck_assert_int_eq(state_lock(&a, tmpdir, dir), 0);
	state_unlock(&a);
	ck_assert_int_eq(waitpid(child, NULL, 0), child);
	free(dead);
	free(lock);
	free(dir);
}
END_TEST

/*
 * A .lock that is a link to a file outside had that file truncated and
 * "pid host" written into it; a dangling one made a file outside. Both
 * are refused by name, and nothing outside changes.
 */
START_TEST(lock_through_a_link_is_refused)
{
	struct state_lock a = STATE_LOCK_INIT;
	struct strbuf err = STRBUF_INIT, left = STRBUF_INIT;
	char *dir = xstrfmt("%s/results/demo", tmpdir);
	char *lock = xstrfmt("%s/.lock", dir);
	char *victim = xstrfmt("%s/victim", tmpdir);
	char *dangling = xstrfmt("%s/made-outside", tmpdir);

	ck_assert_int_eq(mkdir_p(dir, 0755), 0);
	ck_assert_int_eq(write_file_atomic(victim, "keep\n", 5), 0);
	ck_assert_int_eq(symlink(victim, lock), 0);
	error_capture(&err);
	ck_assert_int_eq(state_lock(&a, tmpdir, dir), -1);
	ck_assert_msg(strstr(err.buf, lock) && strstr(err.buf, "symbolic link"),
		      "got '%s'", err.buf);
	ck_assert_int_eq(read_file(victim, &left), 0);
	ck_assert_str_eq(left.buf, "keep\n");
	ck_assert_int_eq(unlink(lock), 0);
	ck_assert_int_eq(symlink(dangling, lock), 0);
	ck_assert_int_eq(state_lock(&a, tmpdir, dir), -1);
	error_capture(NULL);
	ck_assert(!file_exists(dangling));
	strbuf_release(&left);
	strbuf_release(&err);
	free(dangling);
	free(victim);
	free(lock);
	free(dir);
}
END_TEST

static Suite *state_suite(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, json_round_trip_keeps_every_probe_and_mark);
	tcase_add_test(tc, confirm_round_trip_keeps_the_pairs_under_way);
	tcase_add_test(tc, revert_round_trip_keeps_its_pairs);
	tcase_add_test(tc, save_keeps_previous_copy_and_load_reads_last);
	tcase_add_loop_test(tc, corrupt_file_is_refused_by_name_and_kept, 0,
			    ARRAY_SIZE(corrupt));
	tcase_add_test(tc, marks_of_the_endpoints_need_no_candidates);
	tcase_add_test(tc, corrupt_file_points_at_the_previous_copy);
	tcase_add_test(tc, second_run_is_locked_out_with_the_holders_pid_and_host);
	tcase_add_test(tc, forked_child_does_not_keep_the_lock);
	tcase_add_test(tc, lock_of_another_host_holds_across_hosts);
	tcase_add_test(tc, lock_of_a_dead_run_waits_for_its_dying_child);
	tcase_add_test(tc, lock_through_a_link_is_refused);
	tcase_add_test(tc, log_reads_like_git_bisect_log);
	tcase_add_test(tc, inconclusive_log_lists_the_suspects);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(state_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
