/*
 * check_skip.h: a test that cannot run on this machine (no QEMU, not
 * root) says so and returns. Check has no skipped state of its own, so
 * the test prints a line in Check's own format with the letter S, and
 * scripts/run-unit.sh counts it as skipped: never as passed.
 */
#ifndef IOBISECT_CHECK_SKIP_H
#define IOBISECT_CHECK_SKIP_H

#include <check.h>
#include <stdio.h>

#define CHECK_SKIP(...)                                                        \
	do {                                                                   \
		fprintf(stderr, "%s:%d:S:%s: skipped: ", __FILE__, __LINE__,   \
			tcase_name());                                         \
		fprintf(stderr, __VA_ARGS__);                                  \
		fputc('\n', stderr);                                           \
		return;                                                        \
	} while (0)

#endif
