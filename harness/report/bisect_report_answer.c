/*
 * bisect_report_answer.c: what the answer explains, in report.txt and
 * summary.json (see bisect_report.h): its drop set against the
 * endpoints', the revert check, and the commits never named because
 * their image was their parent's.
 */
#include "bisect_report.h"
#include "json_num.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void bisect_report_answer_init(struct bisect_report_answer *a)
{
	memset(a, 0, sizeof(*a));
	a->endpoints_pct = a->culprit_pct = a->explains_pct = NAN;
	a->rest_pct = NAN;
	a->revert_bad = a->revert_median = a->revert_pct = NAN;
	a->brought_pct = a->brought_mbps = NAN;
}

void bisect_report_answer_release(struct bisect_report_answer *a)
{
	free(a->changes);
	strvec_clear(&a->conflicts);
	strvec_clear(&a->same_image);
	free(a->revert_why);
	bisect_report_answer_init(a);
}

void bisect_report_answer_copy(struct bisect_report_answer *to,
			       const struct bisect_report_answer *from)
{
	bisect_report_answer_release(to);
	*to = *from;
	memset(&to->conflicts, 0, sizeof(to->conflicts));
	memset(&to->same_image, 0, sizeof(to->same_image));
	to->changes = NULL;
	to->nr_changes = 0;
	for (size_t i = 0; i < from->nr_changes; i++)
		*bisect_report_answer_add_change(to) = from->changes[i];
	for (size_t i = 0; i < from->conflicts.nr; i++)
		strvec_push(&to->conflicts, from->conflicts.v[i]);
	for (size_t i = 0; i < from->same_image.nr; i++)
		strvec_push(&to->same_image, from->same_image.v[i]);
	to->revert_why = from->revert_why ? xstrdup(from->revert_why) : NULL;
}

struct bisect_report_change *
bisect_report_answer_add_change(struct bisect_report_answer *a)
{
	struct bisect_report_change *c;

	a->changes = xrealloc(a->changes,
			      (a->nr_changes + 1) * sizeof(*a->changes));
	c = &a->changes[a->nr_changes++];
	memset(c, 0, sizeof(*c));
	c->change_pct = c->explains_pct = c->confidence = NAN;
	return c;
}

void bisect_report_revert_size(const struct bisect_report_answer *a,
			       struct strbuf *out)
{
	/* Under half a percent prints as none, not as "-0%". */
	if (isfinite(a->brought_pct) && fabs(a->brought_pct) < 0.5)
		strbuf_addf(out, "brings back none of the drop (%+.1f MB/s)",
			    a->brought_mbps);
	else if (isfinite(a->brought_pct))
		strbuf_addf(out, "brings back %.0f%% of the drop (%+.1f MB/s)",
			    a->brought_pct, a->brought_mbps);
	else
		strbuf_addf(out, "reads %+.1f%% (%+.1f MB/s)", a->revert_pct,
			    a->brought_mbps);
}

void bisect_report_share_text(const struct bisect_report_answer *a,
			      struct strbuf *out)
{
	strbuf_addf(out, "the culprit explains %.0f%% of the endpoints' drop "
			 "(%+.1f%% against its parent, the endpoints %+.1f%%, "
			 "medians per boot)",
		    a->explains_pct, a->culprit_pct, a->endpoints_pct);
	if (a->rest_beyond_noise)
		strbuf_addf(out, "; the rest (%.0f%%) is beyond the noise: "
				 "another change in the range",
			    a->rest_pct);
}

/* Every change found, when there are at least `min`. */
static void render_changes(const struct bisect_report_answer *a, size_t min,
			   struct strbuf *out)
{
	if (!a->nr_changes || a->nr_changes < min)
		return;
	strbuf_addf(out, "  %zu change%s in the range, oldest first:\n",
		    a->nr_changes, a->nr_changes == 1 ? "" : "s");
	for (size_t i = 0; i < a->nr_changes; i++) {
		const struct bisect_report_change *c = &a->changes[i];
		strbuf_addf(out, "    %.12s %+.1f%% against its parent %.12s, "
				 "%.0f%% of the endpoints' drop",
			    c->commit, c->change_pct, c->parent,
			    c->explains_pct);
		if (isfinite(c->confidence))
			strbuf_addf(out, ", confidence %.1f%%",
				    c->confidence * 100);
		strbuf_addf(out, ", %u pair%s%s%s\n", c->pairs,
			    c->pairs == 1 ? "" : "s",
			    c->faster ? ", an improvement" : "",
			    c->answer ? " (the answer)" : "");
	}
}

static void render_revert(const struct bisect_report_answer *a,
			  struct strbuf *out)
{
	switch (a->revert) {
	case REPORT_REVERT_NONE:
		break;
	case REPORT_REVERT_MEASURED:
		strbuf_addf(out, "  reverting %.12s on the bad tip ", a->reverted);
		bisect_report_revert_size(a, out);
		strbuf_addf(out, ": %u pair%s of the revert and the bad "
				 "endpoint, %+.1f%% within a pair (%u builds, "
				 "%u boots, %.0f s this run)\n",
			    a->revert_pairs, a->revert_pairs == 1 ? "" : "s",
			    a->revert_pct, a->revert_builds, a->revert_boots,
			    a->revert_seconds);
		break;
	case REPORT_REVERT_CONFLICTS:
		strbuf_addf(out, "  reverting %.12s on the bad tip does not "
				 "apply cleanly: conflicts in ",
			    a->reverted);
		for (size_t i = 0; i < a->conflicts.nr; i++)
			strbuf_addf(out, "%s%s", i ? ", " : "",
				    a->conflicts.v[i]);
		strbuf_addch(out, '\n');
		break;
	case REPORT_REVERT_FAILED:
		strbuf_addf(out, "  reverting %.12s on the bad tip: not "
				 "measured: %s\n",
			    a->reverted, a->revert_why ? a->revert_why : "");
		break;
	}
}

void bisect_report_render_answer(const struct bisect_report_answer *a,
				 int done, struct strbuf *out)
{
	for (size_t i = 0; i < a->same_image.nr; i++)
		strbuf_addf(out, "  not named: %.12s, which the steps named, "
				 "has its parent's kernel image byte for byte, "
				 "so the drop its boots read was noise; the "
				 "range was judged again\n",
			    a->same_image.v[i]);
	if (!done)
		return;
	if (a->have_share) {
		strbuf_addstr(out, "  ");
		bisect_report_share_text(a, out);
		strbuf_addch(out, '\n');
	}
	render_revert(a, out);
	render_changes(a, 2, out);
}

void bisect_report_render_found(const struct bisect_report_answer *a,
				struct strbuf *out)
{
	render_changes(a, 1, out);
	render_revert(a, out);
}

static const char *const revert_names[] = {
	[REPORT_REVERT_NONE] = "none",
	[REPORT_REVERT_MEASURED] = "measured",
	[REPORT_REVERT_CONFLICTS] = "conflicts",
	[REPORT_REVERT_FAILED] = "failed",
};

static json_t *strvec_array(const struct strvec *sv)
{
	json_t *a = json_array();

	for (size_t i = 0; i < sv->nr; i++)
		json_array_append_new(a, json_string(sv->v[i]));
	return a;
}

void bisect_report_answer_json(const struct bisect_report_answer *a,
			       int done, json_t *o)
{
	json_t *j;

	if (a->same_image.nr)
		json_object_set_new(o, "same_image",
				    strvec_array(&a->same_image));
	if (!done)
		return;
	if (a->have_share) {
		j = json_object();
		json_object_set_new(j, "culprit_pct", json_num(a->culprit_pct));
		json_object_set_new(j, "endpoints_pct",
				    json_num(a->endpoints_pct));
		json_object_set_new(j, "explains_pct",
				    json_num(a->explains_pct));
		json_object_set_new(j, "rest_pct", json_num(a->rest_pct));
		json_object_set_new(j, "rest_beyond_noise",
				    json_boolean(a->rest_beyond_noise));
		json_object_set_new(o, "share", j);
	}
	if (a->nr_changes) {
		json_t *arr = json_array();
		for (size_t i = 0; i < a->nr_changes; i++) {
			const struct bisect_report_change *c = &a->changes[i];
			j = json_object();
			json_object_set_new(j, "commit", json_string(c->commit));
			json_object_set_new(j, "parent", json_string(c->parent));
			json_object_set_new(j, "change_pct",
					    json_num(c->change_pct));
			json_object_set_new(j, "explains_pct",
					    json_num(c->explains_pct));
			json_object_set_new(j, "confidence",
					    json_num(c->confidence));
			json_object_set_new(j, "pairs", json_integer(c->pairs));
			json_object_set_new(j, "answer",
					    json_boolean(c->answer));
			json_object_set_new(j, "faster",
					    json_boolean(c->faster));
			json_array_append_new(arr, j);
		}
		json_object_set_new(o, "changes", arr);
	}
	if (a->revert == REPORT_REVERT_NONE)
		return;
	j = json_object();
	json_object_set_new(j, "state", json_string(revert_names[a->revert]));
	json_object_set_new(j, "culprit", json_string(a->reverted));
	json_object_set_new(j, "commit", json_string(a->revert_commit));
	json_object_set_new(j, "conflicts", strvec_array(&a->conflicts));
	if (a->revert_why)
		json_object_set_new(j, "why", json_string(a->revert_why));
	json_object_set_new(j, "pairs", json_integer(a->revert_pairs));
	json_object_set_new(j, "boots", json_integer(a->revert_boots));
	json_object_set_new(j, "builds", json_integer(a->revert_builds));
	json_object_set_new(j, "seconds", json_num(a->revert_seconds));
	json_object_set_new(j, "bad_mbps", json_num(a->revert_bad / 1e6));
	json_object_set_new(j, "revert_mbps",
			    json_num(a->revert_median / 1e6));
	json_object_set_new(j, "change_pct", json_num(a->revert_pct));
	json_object_set_new(j, "brought_back_pct", json_num(a->brought_pct));
	json_object_set_new(j, "brought_back_mbps", json_num(a->brought_mbps));
	json_object_set_new(o, "revert", j);
}

/* summary.json read back (bisect_report_load.c): the keys above. */

/* A commit id of 40 characters at most into out; 0 when there is one. */
static int id_at(json_t *o, const char *key, char out[41])
{
	const char *s = json_string_value(json_object_get(o, key));

	if (!s || strlen(s) > 40)
		return -1;
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

static void strvec_from(struct strvec *sv, json_t *arr)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_string(v))
			strvec_push(sv, json_string_value(v));
}

static void revert_from_json(struct bisect_report_answer *a, json_t *j)
{
	const char *state = json_string_value(json_object_get(j, "state"));
	const char *why = json_string_value(json_object_get(j, "why"));

	for (size_t k = 0; state && k < ARRAY_SIZE(revert_names); k++)
		if (!strcmp(state, revert_names[k]))
			a->revert = (enum bisect_report_revert)k;
	if (a->revert == REPORT_REVERT_NONE)
		return;
	if (id_at(j, "culprit", a->reverted) ||
	    id_at(j, "commit", a->revert_commit)) {
		a->revert = REPORT_REVERT_NONE;
		return;
	}
	strvec_from(&a->conflicts, json_object_get(j, "conflicts"));
	a->revert_why = why ? xstrdup(why) : NULL;
	a->revert_pairs = json_count_at(j, "pairs");
	a->revert_boots = json_count_at(j, "boots");
	a->revert_builds = json_count_at(j, "builds");
	a->revert_seconds = json_num_at(j, "seconds");
	a->revert_bad = json_num_at(j, "bad_mbps") * 1e6;
	a->revert_median = json_num_at(j, "revert_mbps") * 1e6;
	a->revert_pct = json_num_at(j, "change_pct");
	a->brought_pct = json_num_at(j, "brought_back_pct");
	a->brought_mbps = json_num_at(j, "brought_back_mbps");
}

void bisect_report_answer_from_json(struct bisect_report_answer *a,
				    json_t *o)
{
	json_t *j = json_object_get(o, "share"), *v;
	size_t i;

	if (json_is_object(j)) {
		a->have_share = 1;
		a->culprit_pct = json_num_at(j, "culprit_pct");
		a->endpoints_pct = json_num_at(j, "endpoints_pct");
		a->explains_pct = json_num_at(j, "explains_pct");
		a->rest_pct = json_num_at(j, "rest_pct");
		a->rest_beyond_noise =
			json_is_true(json_object_get(j, "rest_beyond_noise"));
	}
	j = json_object_get(o, "revert");
	if (json_is_object(j))
		revert_from_json(a, j);
	strvec_from(&a->same_image, json_object_get(o, "same_image"));
	json_array_foreach(json_object_get(o, "changes"), i, v) {
		struct bisect_report_change c;

		if (!json_is_object(v) || id_at(v, "commit", c.commit) ||
		    id_at(v, "parent", c.parent))
			continue;
		c.change_pct = json_num_at(v, "change_pct");
		c.explains_pct = json_num_at(v, "explains_pct");
		c.confidence = json_num_at(v, "confidence");
		c.pairs = json_count_at(v, "pairs");
		c.answer = json_is_true(json_object_get(v, "answer"));
		c.faster = json_is_true(json_object_get(v, "faster"));
		*bisect_report_answer_add_change(a) = c;
	}
}
