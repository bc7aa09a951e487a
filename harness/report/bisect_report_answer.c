/*
 * bisect_report_answer.c: what the answer explains, in report.txt and
 * summary.json (see bisect_report.h): its drop set against the
 * endpoints', the revert check, and the commits never named because
 * their image was their parent's.
 */
#include "bisect_report.h"
#include "json_num.h"

#include <math.h>
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
	for (size_t i = 0; i < from->conflicts.nr; i++)
		strvec_push(&to->conflicts, from->conflicts.v[i]);
	for (size_t i = 0; i < from->same_image.nr; i++)
		strvec_push(&to->same_image, from->same_image.v[i]);
	to->revert_why = from->revert_why ? xstrdup(from->revert_why) : NULL;
}

static void render_revert(const struct bisect_report_answer *a,
			  struct strbuf *out)
{
	switch (a->revert) {
	case REPORT_REVERT_NONE:
		break;
	case REPORT_REVERT_MEASURED:
		strbuf_addf(out, "  reverting %.12s on the bad tip ", a->reverted);
		if (isfinite(a->brought_pct))
			strbuf_addf(out, "brings back %.0f%% of the drop "
					 "(%+.1f MB/s)",
				    a->brought_pct, a->brought_mbps);
		else
			strbuf_addf(out, "reads %+.1f%% (%+.1f MB/s)",
				    a->revert_pct, a->brought_mbps);
		strbuf_addf(out, ": %u pairs of the revert and the bad "
				 "endpoint, %+.1f%% within a pair (%u builds, "
				 "%u boots, %.0f s this run)\n",
			    a->revert_pairs, a->revert_pct, a->revert_builds,
			    a->revert_boots, a->revert_seconds);
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
		strbuf_addf(out, "  the culprit explains %.0f%% of the "
				 "endpoints' drop (%+.1f%% against its parent, "
				 "the endpoints %+.1f%%, medians per boot)",
			    a->explains_pct, a->culprit_pct, a->endpoints_pct);
		if (a->rest_beyond_noise)
			strbuf_addf(out, "; the rest (%.0f%%) is beyond the "
					 "noise: another change in the range",
				    a->rest_pct);
		strbuf_addch(out, '\n');
	}
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
