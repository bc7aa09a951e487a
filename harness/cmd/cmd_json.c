/* cmd_json.c: the standard output held for one JSON document (cmd_json.h). */
#include "cmd_json.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The standard output while it is held; close-on-exec: no child has it. */
static int held = -1;

int cmd_json_hold(void)
{
	fflush(stdout);
	held = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (held < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return error("--json: cannot set the standard output aside: "
			     "%s",
			     strerror(errno));
	/* Lines for people show as they are printed, as on a terminal. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return 0;
}

int cmd_json_put(json_t *doc)
{
	char *text = NULL;
	int rc = 0;

	fflush(stdout);
	if (held >= 0) {
		if (dup2(held, STDOUT_FILENO) < 0)
			rc = error("--json: cannot give the standard output "
				   "back: %s",
				   strerror(errno));
		close(held);
		held = -1;
	}
	if (doc && !rc) {
		text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (!text)
			rc = error("--json: the document could not be written");
		else
			printf("%s\n", text);
	}
	free(text);
	json_decref(doc);
	return rc;
}
