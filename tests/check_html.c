/*
 * check_html.c: a results folder written in the store's layout, read back
 * by store_scan and rendered by html.c: one plot per topology x point x
 * metric, the change point at the step, the culprit marked, text from the
 * documents escaped, the never-pool rule, and the JSON twin.
 */
#include "html.h"
#include "stats.h"
#include "store_scan.h"
#include "util.h"

#include <check.h>
#include <git2.h>
#include <math.h>

static char tmp[64];
static const char *ids[10];

/* A sample document; `machine` is its machine object as JSON text. */
static void write_doc_on(const char *job, int c, const char *topo,
			 const char *point, int boot, int idx, double bw,
			 const char *build_key, const char *machine)
{
	char *dir = xstrfmt("%s/%s/%.12s/%s-rawread/%s", tmp, job, ids[c],
			    topo, point);
	char *path = xstrfmt("%s/boot-%d-sample-%d.json", dir, boot, idx);
	char *doc = xstrfmt(
		"{\"job\": \"%s\", \"commit\": \"%s\", \"build_key\": \"%s\", "
		"\"topology\": \"%s\", \"engine\": \"rawread\", \"point\": "
		"\"%s\", \"boot\": %d, \"complete\": true, \"spec_hash\": "
		"\"s\", \"machine\": %s, \"started\": "
		"\"2026-12-02T10:%02d:00Z\", \"read\": {\"bw_bytes\": %.0f, "
		"\"verified\": true}}",
		job, ids[c], build_key, topo, point, boot, machine, c, bw);
	ck_assert_int_eq(mkdir_p(dir, 0755), 0);
	ck_assert_int_eq(write_file_atomic(path, doc, strlen(doc)), 0);
	free(dir);
	free(path);
	free(doc);
}

/* As documents were written before clocks were recorded: none named. */
static void write_doc(const char *job, int c, const char *topo,
		      const char *point, int boot, int idx, double bw,
		      const char *build_key)
{
	write_doc_on(job, c, topo, point, boot, idx, bw, build_key,
		     "{\"accel\": \"tcg\"}");
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* 10 commits, 2 topologies x 2 points, a 20% drop at commit 6. */
static void setup(void)
{
	static char idbuf[10][41];
	struct stats_rng r = STATS_RNG_INIT(7);
	const char *topos[] = { "virtio", "nvme" };
	const char *points[] = { "bs_kb=4", "bs_kb=1024" };

	git_libgit2_init();
	snprintf(tmp, sizeof(tmp), "/tmp/check_html.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	for (int c = 0; c < 10; c++) {
		char *s = xstrfmt("commit %d", c);
		hash_hex(s, strlen(s), idbuf[c]);
		ids[c] = idbuf[c];
		free(s);
	}
	for (int c = 0; c < 10; c++)
		for (int t = 0; t < 2; t++)
			for (int p = 0; p < 2; p++)
				for (int b = 1; b <= 3; b++) {
					double lv = (t ? 900e6 : 600e6) *
						    (p ? 1 : 0.4) *
						    (c >= 6 ? 0.8 : 1);
					write_doc("j", c, topos[t], points[p], b,
						  0,
						  lv * (1 + 0.01 * stats_rng_normal(&r)),
						  "k");
				}
	/* A boot of another build of commit 2: never pooled with "k". */
	write_doc("j", 2, "virtio", "bs_kb=4", 9, 0, 1e6, "other-build");
}

static void teardown(void)
{
	remove_tree(tmp);
}

static void write_state_of(const char *job, const char *culprit_subject)
{
	char *cands = xstrdup("");
	for (int c = 9; c >= 1; c--) {
		char *n = xstrfmt("%s\"%s\"%s", cands, ids[c], c > 1 ? ", " : "");
		free(cands);
		cands = n;
	}
	json_t *subj = json_string(culprit_subject);
	char *sj = json_dumps(subj, JSON_ENCODE_ANY);
	char *st = xstrfmt(
		"{\"version\": 1, \"job_hash\": \"h\", \"job\": \"%s\", "
		"\"good\": \"%s\", \"bad\": \"%s\", \"merge_base\": \"\", "
		"\"candidates\": [%s], \"probes\": [{\"commit\": \"%s\", "
		"\"role\": \"step\", \"mark\": \"bad\", \"subject\": %s}], "
		"\"marks\": [], \"status\": \"done\", \"culprit\": \"%s\", "
		"\"suspects\": [], \"confidence\": 0.97}",
		job, ids[0], ids[9], cands, ids[6], sj, ids[6]);
	char *path = xstrfmt("%s/%s/bisect-state.json", tmp, job);
	ck_assert_int_eq(write_file_atomic(path, st, strlen(st)), 0);
	json_decref(subj);
	free(sj);
	free(st);
	free(path);
	free(cands);
}

static void write_state(const char *culprit_subject)
{
	write_state_of("j", culprit_subject);
}

START_TEST(one_plot_per_series_with_step_and_culprit)
{
	struct scan s;
	struct html_options o = HTML_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT;
	char *m;

	write_state("block: <script>alert(1)</script> & more");
	ck_assert_int_eq(scan_load(&s, tmp, NULL), 0);
	ck_assert_str_eq(s.order, "bisect-state");
	ck_assert_uint_eq(s.nr_commits, 10);
	ck_assert_uint_eq(s.nr_series, 4);
	/* History order: good first, then the range oldest first. */
	for (int c = 0; c < 10; c++)
		ck_assert_str_eq(s.commits[c].id, ids[c]);
	ck_assert_int_eq(html_render(&s, &o, &out), 0);
	ck_assert_uint_eq(count(out.buf, "<svg class=\"plot\""), 4);
	ck_assert_uint_eq(count(out.buf, "data-point=\"bs_kb=4\""), 2);
	ck_assert_uint_eq(count(out.buf, "data-topology=\"nvme\""), 2);
	m = xstrfmt("<g class=\"culprit\" data-commit=\"%s\"", ids[6]);
	ck_assert_uint_eq(count(out.buf, m), 4);
	free(m);
	m = xstrfmt("<g class=\"changepoint\" data-commit=\"%s\" "
		    "data-kind=\"regression\"", ids[6]);
	ck_assert_uint_eq(count(out.buf, m), 4);
	free(m);
	/* Nothing from the network, nothing that runs. */
	ck_assert_ptr_null(strstr(out.buf, "<script"));
	ck_assert_ptr_null(strstr(out.buf, "http://www.w3.org/1999"));
	ck_assert_ptr_null(strstr(out.buf, "src="));
	ck_assert_ptr_null(strstr(out.buf, "href="));
	ck_assert_ptr_nonnull(strstr(out.buf, "&lt;script&gt;alert(1)"));
	strbuf_release(&out);
	scan_release(&s);
}
END_TEST

START_TEST(other_build_is_not_pooled)
{
	struct scan s;
	ck_assert_int_eq(scan_load(&s, tmp, "j"), 0);
	ck_assert_str_eq(s.order, "timestamps");
	for (size_t i = 0; i < s.nr_series; i++) {
		const struct scan_series *ser = &s.series[i];
		if (strcmp(ser->topology, "virtio") || strcmp(ser->point, "bs_kb=4"))
			continue;
		long c = scan_find_commit(&s, ids[2]);
		ck_assert_int_ge(c, 0);
		ck_assert_uint_eq(ser->cells[c].nr, 3);
		ck_assert_uint_eq(ser->cells[c].nr_ignored, 1);
		for (size_t b = 0; b < 3; b++)
			ck_assert(ser->cells[c].values[b] > 200e6);
	}
	scan_release(&s);
}
END_TEST

START_TEST(json_carries_change_points_in_mbps)
{
	struct scan s;
	struct html_options o = HTML_OPTIONS_INIT;
	json_t *j, *ser, *cp;

	write_state("x");
	ck_assert_int_eq(scan_load(&s, tmp, NULL), 0);
	j = html_report_json(&s, &o);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(json_object_get(j, "culprit")),
			 ids[6]);
	ser = json_object_get(j, "series");
	ck_assert_uint_eq(json_array_size(ser), 4);
	cp = json_array_get(json_object_get(json_array_get(ser, 0),
					    "change_points"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(cp, "commit")),
			 ids[6]);
	ck_assert(fabs(json_real_value(json_object_get(cp, "change_pct")) + 20) < 3);
	json_decref(j);
	scan_release(&s);
}
END_TEST

/* cmd_compare.c's table, pure (declared there for tests). */
void compare_render(const struct scan *s, size_t a, size_t b,
		    struct strbuf *out);

/*
 * Figures of the virtual clock are a series of their own, named by their
 * unit in the page, its JSON and compare; a wall-clock document that says
 * so pools with the old ones that say nothing.
 */
START_TEST(clocks_are_series_of_their_own)
{
	const char *virt = "{\"accel\": \"tcg\", \"clock\": \"virtual\", "
			   "\"icount_shift\": 3}";
	struct html_options o = HTML_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct scan s;
	size_t nv = 0, nw = 0;

	for (int b = 1; b <= 3; b++) {
		write_doc_on("j", 2, "virtio", "bs_kb=4", 10 + b, 0, 50e6, "k",
			     virt);
		write_doc_on("j", 6, "virtio", "bs_kb=4", 10 + b, 0, 40e6, "k",
			     virt);
	}
	write_doc_on("j", 2, "virtio", "bs_kb=4", 20, 0, 240e6, "k",
		     "{\"accel\": \"tcg\", \"clock\": \"wall\"}");
	ck_assert_int_eq(scan_load(&s, tmp, "j"), 0);
	ck_assert_uint_eq(s.nr_series, 5);
	long c2 = scan_find_commit(&s, ids[2]), c6 = scan_find_commit(&s, ids[6]);
	for (size_t i = 0; i < s.nr_series; i++) {
		const struct scan_series *ser = &s.series[i];
		if (strcmp(ser->topology, "virtio") || strcmp(ser->point, "bs_kb=4"))
			continue;
		if (ser->clock.kind == CLOCK_VIRTUAL) {
			nv++;
			ck_assert_int_eq(ser->clock.shift, 3);
			ck_assert_uint_eq(ser->cells[c2].nr, 3);
			ck_assert(ser->cells[c2].values[0] == 50e6);
			ck_assert_uint_eq(ser->cells[0].nr, 0);
			strbuf_reset(&out);
			compare_render(&s, (size_t)c2, (size_t)c6, &out);
		} else {
			nw++;
			/* Three old boots and the new one, no virtual one. */
			ck_assert_uint_eq(ser->cells[c2].nr, 4);
			for (size_t b = 0; b < 4; b++)
				ck_assert(ser->cells[c2].values[b] > 200e6);
		}
	}
	ck_assert_uint_eq(nv, 1);
	ck_assert_uint_eq(nw, 1);
	/* compare: one row per clock, each in its unit. */
	ck_assert_msg(strstr(out.buf, "virtio/rawread bs_kb=4 read MB/s in "
				      "virtual time (icount, shift 3)  (3 vs 3 "
				      "boots)") &&
			      strstr(out.buf, "-20.0%") &&
			      strstr(out.buf, "bs_kb=4 read MB/s  ("),
		      "%s", out.buf);
	strbuf_reset(&out);
	ck_assert_int_eq(html_render(&s, &o, &out), 0);
	ck_assert_uint_eq(count(out.buf, "data-clock=\"virtual\""), 1);
	ck_assert_uint_eq(count(out.buf, "data-clock=\"wall\""), 4);
	ck_assert_ptr_nonnull(strstr(out.buf, "bs_kb=4 read MB/s in virtual "
					      "time (icount, shift 3) per "
					      "commit"));
	json_t *j = html_report_json(&s, &o), *ser;
	size_t i, nj = 0;
	json_array_foreach(json_object_get(j, "series"), i, ser)
		if (json_object_get(ser, "icount_shift"))
			nj += !strcmp(json_string_value(json_object_get(
					      ser, "clock")),
				      "virtual");
	ck_assert_uint_eq(nj, 1);
	json_decref(j);
	strbuf_release(&out);
	scan_release(&s);
}
END_TEST

/* A sample document whose read carries block counters of `req_kb` requests. */
static void write_doc_counted(int c, int boot, double bw, int req_kb,
			      const char *machine)
{
	char *dir = xstrfmt("%s/w/%.12s/virtio-rawread/bs_kb=4", tmp, ids[c]);
	char *path = xstrfmt("%s/boot-%d-sample-0.json", dir, boot);
	char *doc = xstrfmt(
		"{\"job\": \"w\", \"commit\": \"%s\", \"build_key\": \"k\", "
		"\"topology\": \"virtio\", \"engine\": \"rawread\", \"point\": "
		"\"bs_kb=4\", \"boot\": %d, \"complete\": true, \"spec_hash\": "
		"\"s\", \"machine\": %s, \"started\": \"2026-12-02T11:%02d:00Z\", "
		"\"read\": {\"bw_bytes\": %.0f, \"verified\": true, "
		"\"block_v1\": {\"interval_ns\": 2000000000, \"read_ns\": 1, "
		"\"devices\": [{\"dev\": \"vda\", \"layer\": \"d0\", "
		"\"kind\": \"disk\", \"missing\": [], \"derived\": "
		"{\"reads\": %d, \"avg_read_request_bytes\": %d}}]}}}",
		ids[c], boot, machine, c, bw, 4096 / req_kb, req_kb * 1024);
	ck_assert_int_eq(mkdir_p(dir, 0755), 0);
	ck_assert_int_eq(write_file_atomic(path, doc, strlen(doc)), 0);
	free(dir);
	free(path);
	free(doc);
}

/*
 * A bisection in virtual time whose answer was also timed in pairs on
 * the wall clock (runs.wall_pairs): the answer's clock, measured on every
 * commit, is plotted first, where the wall clock's two points came first
 * by the clocks' order; and the culprit's counters, one table per clock,
 * each name their clock (both were "culprit: X -> Y · virtio bs_kb=4
 * read").
 */
START_TEST(the_answers_clock_comes_first)
{
	const char *virt = "{\"accel\": \"tcg\", \"clock\": \"virtual\", "
			   "\"icount_shift\": 3}";
	const char *wall = "{\"accel\": \"tcg\", \"clock\": \"wall\"}";
	struct html_options o = HTML_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct scan s;

	for (int c = 0; c < 10; c++)
		for (int b = 11; b <= 13; b++)
			write_doc_counted(c, b, (c >= 6 ? 40e6 : 50e6) + b, c >= 6 ? 64 : 128,
					  virt);
	for (int b = 21; b <= 24; b++) {
		write_doc_counted(5, b, 240e6 + b, 128, wall);
		write_doc_counted(6, b, 200e6 + b, 64, wall);
	}
	write_state_of("w", "block: the culprit");
	ck_assert_int_eq(scan_load(&s, tmp, "w"), 0);
	ck_assert_int_eq(html_render(&s, &o, &out), 0);
	const char *v = strstr(out.buf, "bs_kb=4 &middot; read &middot; MB/s in "
					"virtual time (icount, shift 3)<span");
	const char *w = strstr(out.buf, "bs_kb=4 &middot; read &middot; "
					"MB/s<span");
	ck_assert_msg(v && w && v < w, "the wall clock's plot comes first");
	const char *cv = strstr(out.buf, "virtio bs_kb=4 read &middot; MB/s in "
					 "virtual time (icount, shift 3)</caption>");
	const char *cw = strstr(out.buf, "virtio bs_kb=4 read &middot; "
					 "MB/s</caption>");
	ck_assert_msg(cv && cw, "a counters' table does not name its clock");
	ck_assert_uint_eq(count(out.buf, "<caption>culprit: "), 2);
	strbuf_release(&out);
	scan_release(&s);
}
END_TEST

/*
 * A corrupt bisect state stops report, which draws the culprit and the
 * history from it, but not compare, which needs only the boots.
 */
START_TEST(corrupt_state_blocks_only_who_needs_it)
{
	struct scan s;
	struct strbuf err = STRBUF_INIT;
	char *state = xstrfmt("%s/j/bisect-state.json", tmp);

	ck_assert_int_eq(mkdir_p(tmp, 0755), 0);
	ck_assert_int_eq(write_file_atomic(state, "{\"version", 9), 0);
	error_capture(&err);
	ck_assert_int_eq(scan_load(&s, tmp, "j"), -1);
	strbuf_reset(&err);
	int rc = scan_load_flags(&s, tmp, "j", SCAN_STATE_OPTIONAL);
	error_capture(NULL);
	ck_assert_msg(rc == 0, "%s", err.buf);
	ck_assert_msg(strstr(err.buf, state), "no warning naming it: %s",
		      err.buf);
	ck_assert_uint_eq(s.nr_commits, 10);
	ck_assert(!s.has_state);
	ck_assert_str_eq(s.order, "timestamps");
	scan_release(&s);
	strbuf_release(&err);
	free(state);
}
END_TEST

/*
 * A commit measured on one point only: the other series have an empty
 * cell there, left out of the JSON (its arrays used to leak: found by
 * fuzz_store, seen by LeakSanitizer under make asan).
 */
START_TEST(json_skips_empty_cells)
{
	struct scan s;
	struct html_options o = HTML_OPTIONS_INIT;
	static char extra[41];
	json_t *j;

	hash_hex("commit 10", 9, extra);
	ids[9] = extra;
	write_doc("j", 9, "virtio", "bs_kb=4", 1, 0, 5e8, "k");
	ck_assert_int_eq(scan_load(&s, tmp, "j"), 0);
	ck_assert_uint_eq(s.nr_commits, 11);
	j = html_report_json(&s, &o);
	ck_assert_ptr_nonnull(j);
	size_t cells = 0;
	json_t *ser = json_object_get(j, "series");
	for (size_t i = 0; i < json_array_size(ser); i++)
		cells += json_array_size(
			json_object_get(json_array_get(ser, i), "cells"));
	ck_assert_uint_eq(cells, 4 * 10 + 1);
	json_decref(j);
	scan_release(&s);
}
END_TEST

/*
 * The stored answer's summary.json (bisect_report_answer_json's keys):
 * `extra` is what stands beside the answer, "" for an older summary.
 */
static void write_summary(const char *culprit, const char *extra)
{
	char *path = xstrfmt("%s/j/summary.json", tmp);
	char *doc = xstrfmt("{\"job\": \"j\", \"status\": \"done\", "
			    "\"culprit\": {\"id\": \"%s\", \"subject\": \"x\"}, "
			    "\"parent\": \"%s\", \"confidence\": 0.97, "
			    "\"metrics\": []%s}",
			    culprit, ids[5], extra);
	ck_assert_int_eq(write_file_atomic(path, doc, strlen(doc)), 0);
	free(path);
	free(doc);
}

/* Two changes, the second the answer, and `revert` (freed). */
static char *two_changes(char *revert)
{
	char *extra = xstrfmt(
		", \"share\": {\"culprit_pct\": -16.0, \"endpoints_pct\": -20.0, "
		"\"explains_pct\": 78.0, \"rest_pct\": 22.0, "
		"\"rest_beyond_noise\": true}, \"changes\": ["
		"{\"commit\": \"%s\", \"parent\": \"%s\", \"change_pct\": -4.1, "
		"\"explains_pct\": 22.0, \"confidence\": 0.95, \"pairs\": 6, "
		"\"answer\": false, \"faster\": false}, "
		"{\"commit\": \"%s\", \"parent\": \"%s\", \"change_pct\": -16.0, "
		"\"explains_pct\": 78.0, \"confidence\": 0.99, \"pairs\": 8, "
		"\"answer\": true, \"faster\": false}], \"revert\": %s",
		ids[3], ids[2], ids[6], ids[5], revert);
	free(revert);
	return extra;
}

/* cmd_compare.c: the stored answer's lines (declared there for tests). */
void compare_render_answer(const struct scan *s, struct strbuf *out);

/*
 * Every change the bisection found is marked in each plot that measured
 * it, with its size and way; the page lists them under the answer, with
 * the culprit's share and the revert check, and compare prints them.
 */
START_TEST(changes_and_revert_on_the_page)
{
	struct scan s;
	struct html_options o = HTML_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT;
	char *extra = two_changes(xstrfmt(
		"{\"state\": \"measured\", \"culprit\": \"%s\", \"commit\": "
		"\"%s\", \"conflicts\": [], \"pairs\": 6, \"boots\": 12, "
		"\"builds\": 1, \"seconds\": 340, \"change_pct\": 21.0, "
		"\"brought_back_pct\": 85.0, \"brought_back_mbps\": 98.0}",
		ids[6], ids[7]));
	char *m;

	write_state("x");
	write_summary(ids[6], extra);
	ck_assert_int_eq(scan_load(&s, tmp, "j"), 0);
	ck_assert_int_eq(html_render(&s, &o, &out), 0);
	for (int c = 3; c <= 6; c += 3) {
		m = xstrfmt("<g class=\"change slower\" data-commit=\"%s\"", ids[c]);
		ck_assert_msg(count(out.buf, m) == 4, "no marker of %s", ids[c]);
		free(m);
		m = xstrfmt("<tr class=\"slower%s\" data-commit=\"%s\"><td "
			    "class=\"id\">%.12s</td>",
			    c == 6 ? " answer" : "", ids[c], ids[c]);
		ck_assert_msg(count(out.buf, m) == 1, "no row of %s", ids[c]);
		free(m);
	}
	ck_assert_uint_eq(count(out.buf, ">-4.1% slower</text>"), 4);
	ck_assert_ptr_nonnull(strstr(out.buf, "-16.0% slower</td><td "
					      "class=\"num\">78%</td><td class="
					      "\"num\">99.0%</td><td class=\"num\">"
					      "8</td>"));
	m = xstrfmt("<p class=\"revert\" data-state=\"measured\">Reverting "
		    "<span class=\"id\">%.12s</span> on the bad tip brings back "
		    "85%% of the drop (+98.0 MB/s), 6 pairs",
		    ids[6]);
	ck_assert_msg(strstr(out.buf, m), "no revert line");
	free(m);
	ck_assert_ptr_nonnull(strstr(out.buf, "the rest (22%) is beyond"));
	json_t *j = html_report_json(&s, &o);
	ck_assert_uint_eq(json_array_size(json_object_get(
				  json_object_get(j, "answer"), "changes")),
			  2);
	json_decref(j);
	/* compare: a line per change, one for the revert. */
	strbuf_reset(&out);
	compare_render_answer(&s, &out);
	m = xstrfmt("    %.12s -4.1%% against its parent %.12s, 22%% of the "
		    "endpoints' drop, confidence 95.0%%, 6 pairs\n",
		    ids[3], ids[2]);
	ck_assert_msg(strstr(out.buf, m), "%s", out.buf);
	free(m);
	m = xstrfmt("  reverting %.12s on the bad tip brings back 85%% of the "
		    "drop (+98.0 MB/s): 6 pairs",
		    ids[6]);
	ck_assert_msg(strstr(out.buf, m), "%s", out.buf);
	ck_assert_uint_eq(count(out.buf, "against its parent"), 2);
	free(m);
	free(extra);
	strbuf_release(&out);
	scan_release(&s);
}
END_TEST

/* A revert that does not apply: its files named, escaped on the page. */
START_TEST(revert_conflicts_are_named_and_escaped)
{
	struct scan s;
	struct html_options o = HTML_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT;
	char *extra = two_changes(xstrfmt(
		"{\"state\": \"conflicts\", \"culprit\": \"%s\", \"commit\": "
		"\"\", \"conflicts\": [\"block/<b>&.c\", \"mm/x.c\"]}",
		ids[6]));

	write_state("x");
	write_summary(ids[6], extra);
	ck_assert_int_eq(scan_load(&s, tmp, "j"), 0);
	ck_assert_int_eq(html_render(&s, &o, &out), 0);
	ck_assert_msg(strstr(out.buf, "on the bad tip does not apply cleanly: "
				      "conflicts in block/&lt;b&gt;&amp;.c, "
				      "mm/x.c.</p>"),
		      "no conflicts' line");
	ck_assert_ptr_null(strstr(out.buf, "<b>&"));
	strbuf_reset(&out);
	compare_render_answer(&s, &out);
	ck_assert_msg(strstr(out.buf, "does not apply cleanly: conflicts in "
				      "block/<b>&.c, mm/x.c\n"),
		      "%s", out.buf);
	free(extra);
	strbuf_release(&out);
	scan_release(&s);
}
END_TEST

/*
 * An older summary.json (no changes, share or revert), or one that
 * answers another state, leaves the page and its JSON byte for byte as
 * they are without one, and compare says nothing more.
 */
START_TEST(old_summary_renders_as_before)
{
	struct scan s;
	struct html_options o = HTML_OPTIONS_INIT;
	struct strbuf none = STRBUF_INIT, out = STRBUF_INIT;
	char *extra = two_changes(xstrdup("{}"));
	char *jnone, *jout;

	write_state("x");
	ck_assert_int_eq(scan_load(&s, tmp, "j"), 0);
	ck_assert_int_eq(html_render(&s, &o, &none), 0);
	json_t *j = html_report_json(&s, &o);
	jnone = json_dumps(j, JSON_SORT_KEYS);
	json_decref(j);
	const char *summaries[][2] = { { ids[6], "" }, { ids[7], extra } };
	for (size_t k = 0; k < 2; k++) {
		write_summary(summaries[k][0], summaries[k][1]);
		strbuf_reset(&out);
		ck_assert_int_eq(html_render(&s, &o, &out), 0);
		ck_assert_str_eq(out.buf, none.buf);
		j = html_report_json(&s, &o);
		jout = json_dumps(j, JSON_SORT_KEYS);
		ck_assert_str_eq(jout, jnone);
		free(jout);
		json_decref(j);
		strbuf_reset(&out);
		compare_render_answer(&s, &out);
		ck_assert_str_eq(out.buf, "");
	}
	free(jnone);
	free(extra);
	strbuf_release(&none);
	strbuf_release(&out);
	scan_release(&s);
}
END_TEST

START_TEST(missing_folder_is_an_error)
{
	struct scan s;
	struct strbuf err = STRBUF_INIT;
	error_capture(&err);
	ck_assert_int_eq(scan_load(&s, "/nonexistent/results", NULL), -1);
	error_capture(NULL);
	ck_assert_ptr_nonnull(strstr(err.buf, "/nonexistent/results"));
	strbuf_release(&err);
}
END_TEST

static Suite *html_suite(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, one_plot_per_series_with_step_and_culprit);
	tcase_add_test(tc, other_build_is_not_pooled);
	tcase_add_test(tc, clocks_are_series_of_their_own);
	tcase_add_test(tc, the_answers_clock_comes_first);
	tcase_add_test(tc, json_carries_change_points_in_mbps);
	tcase_add_test(tc, corrupt_state_blocks_only_who_needs_it);
	tcase_add_test(tc, json_skips_empty_cells);
	tcase_add_test(tc, changes_and_revert_on_the_page);
	tcase_add_test(tc, revert_conflicts_are_named_and_escaped);
	tcase_add_test(tc, old_summary_renders_as_before);
	tcase_add_test(tc, missing_folder_is_an_error);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(html_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
