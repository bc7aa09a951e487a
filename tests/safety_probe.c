/*
 * safety_probe.c: a test driver for the passthrough safety check
 * (harness/boot/safety.c), used by tests/integration/60-safety-passthrough.sh
 * until `iobisect run --topology passthrough` calls it itself:
 *
 *   safety-probe [--write] [--destroy-data-on=DEV] [--force]
 *                [--hold-seconds=N] PATH
 *
 * Prints "accepted <realpath> read-only|read-write" and exits 0, or the
 * refusal (error: ...) and exits 1. With --hold-seconds it keeps the
 * device held that long, so a test can check the hold keeps others out.
 */
#include "safety.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *dd = NULL, *path = NULL;
	int write = 0, force = 0;
	long hold = 0;
	struct safety_hold h = SAFETY_HOLD_INIT;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--write"))
			write = 1;
		else if (!strcmp(argv[i], "--force"))
			force = 1;
		else if (!strncmp(argv[i], "--destroy-data-on=", 18))
			dd = argv[i] + 18;
		else if (!strncmp(argv[i], "--hold-seconds=", 15))
			hold = strtol(argv[i] + 15, NULL, 10);
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			die("usage: safety-probe [--write] "
			    "[--destroy-data-on=DEV] [--force] "
			    "[--hold-seconds=N] PATH");
	}
	if (!path)
		die("safety-probe: no path");
	if (safety_check_passthrough(path, write, dd, force, &h))
		return 1;
	printf("accepted %s %s\n", h.path,
	       h.writable ? "read-write" : "read-only");
	fflush(stdout);
	if (hold > 0)
		sleep((unsigned)hold);
	safety_release(&h);
	return 0;
}
