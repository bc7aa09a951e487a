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
	return name_of(mark_names, ARRAY_SIZE(mark_names), mark, "untested");
}

int bisect_mark_parse(const char *name, enum bisect_mark *out)
{
	int i = name_index(mark_names, ARRAY_SIZE(mark_names), name);

	/* "untested" is no mark a commit can be given. */
	if (i <= BISECT_UNTESTED)
		return -1;
	*out = (enum bisect_mark)i;
	return 0;
}

int probe_outcome_measured(enum probe_outcome o)
{
	return o == PROBE_FAST || o == PROBE_SLOW || o == PROBE_UNDECIDED;
}

const char *probe_outcome_name(enum probe_outcome o)
{
	return name_of(failure_names, ARRAY_SIZE(failure_names), o, "ok");
}

int probe_outcome_parse(const char *name, enum probe_outcome *out)
{
	int i = name_index(failure_names, ARRAY_SIZE(failure_names), name);

	if (!strcmp(name, "ok"))
		return 1;
	if (i < 0)
		return -1;
	*out = (enum probe_outcome)i;
	return 0;
}
