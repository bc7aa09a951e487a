/*
 * marks.c: the names of marks and probe outcomes (marks.h).
 */
#include "marks.h"
#include "util.h"

#include <string.h>

static const char *const mark_names[] = {
	[BISECT_UNTESTED] = "untested",
	[BISECT_GOOD] = "good",
	[BISECT_BAD] = "bad",
	[BISECT_SKIP] = "skip",
};

/* The failures by name; every measured outcome is "ok". */
static const char *const failure_names[] = {
	[PROBE_BUILD_FAILED] = "build-failure",
	[PROBE_BOOT_FAILED] = "boot-failure",
	[PROBE_PANIC] = "panic",
	[PROBE_TIMEOUT] = "timeout",
	[PROBE_WORKLOAD_ERROR] = "workload-error",
};

const char *bisect_mark_name(enum bisect_mark mark)
{
	if ((size_t)mark < ARRAY_SIZE(mark_names))
		return mark_names[mark];
	return "untested";
}

int bisect_mark_parse(const char *name, enum bisect_mark *out)
{
	/* "untested" is no mark a commit can be given. */
	for (size_t i = BISECT_GOOD; i < ARRAY_SIZE(mark_names); i++)
		if (!strcmp(name, mark_names[i])) {
			*out = (enum bisect_mark)i;
			return 0;
		}
	return -1;
}

int probe_outcome_measured(enum probe_outcome o)
{
	return o == PROBE_FAST || o == PROBE_SLOW || o == PROBE_UNDECIDED;
}

const char *probe_outcome_name(enum probe_outcome o)
{
	if ((size_t)o < ARRAY_SIZE(failure_names))
		return failure_names[o];
	return "ok";
}

int probe_outcome_parse(const char *name, enum probe_outcome *out)
{
	if (!strcmp(name, "ok"))
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(failure_names); i++)
		if (!strcmp(name, failure_names[i])) {
			*out = (enum probe_outcome)i;
			return 0;
		}
	return -1;
}
