/*
 * cmd_version.c: `iobisect version` (and `iobisect --version`): which
 * program this is and what it would run: the release and the build's git
 * describe, the guest program and its build id, the data folder, the
 * QEMU on PATH with its version, and whether it loads the profile's
 * plugin. What a bug report or a lab's inventory
 * of nodes needs, in one aligned block.
 */
#include "build_id.h"
#include "cmd.h"
#include "initramfs.h"
#include "job_datadir.h"
#include "options.h"
#include "qemu.h"
#include "tbcount.h"
#include "util.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* `name` on PATH, as a shell would run it; NULL when none. */
static char *path_lookup(const char *name)
{
	const char *path = getenv("PATH");
	struct strvec dirs = STRVEC_INIT;
	char *found = NULL;

	strvec_split(&dirs, path && *path ? path : "/usr/bin:/bin", ':');
	for (size_t i = 0; !found && i < dirs.nr; i++) {
		char *cand = xstrfmt("%s/%s", dirs.v[i], name);
		if (!access(cand, X_OK))
			found = cand;
		else
			free(cand);
	}
	strvec_clear(&dirs);
	return found;
}

int cmd_version(int argc, char **argv)
{
	const struct opt opts[] = {OPT_END()};
	struct strbuf id = STRBUF_INIT;
	const char *data = job_data_dir();
	char *guest, *qemu, *qv = NULL;
	int code;

	if (opt_parse_command("version", NULL, opts, argc, argv, &code))
		return code;
	printf("iobisect %s (git %s)\n", version_release(), version_describe());
	guest = initramfs_find_guest();
	if (!guest) {
		char *looked = initramfs_guest_looked();
		printf("guest    none: %s\n", looked);
		free(looked);
	} else if (build_id_of_file(guest, &id)) {
		printf("guest    %s (no build id)\n", guest);
	} else {
		printf("guest    %s (build id %s)\n", guest, id.buf);
	}
	if (data) {
		printf("data     %s\n", data);
	} else {
		char *looked = job_data_looked();
		printf("data     none: %s\n", looked);
		free(looked);
	}
	/* The machine.qemu a job names may differ: this is the default's. */
	qemu = path_lookup("qemu-system-x86_64");
	/* A QEMU that cannot say its version is shown without one. */
	if (qemu && qemu_version(qemu, &qv) < 0)
		qv = NULL;
	printf("qemu     %s%s%s%s\n", qemu ? qemu : "not found on PATH",
	       qv ? " (" : "", qv ? qv : "", qv ? ")" : "");
	if (qemu) {
		char *plugin, *why;
		if (tbcount_available(qemu, &plugin, &why))
			printf("plugin   %s (QEMU loads it: profiles)\n", plugin);
		else
			printf("plugin   none: %s (no profiles)\n", why);
		free(plugin);
		free(why);
	}
	free(qv);
	free(qemu);
	free(guest);
	strbuf_release(&id);
	return 0;
}
