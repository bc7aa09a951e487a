/*
 * job_datadir.c: where the data a job names by word lives (job_datadir.h):
 * the folder holding qemu/ (topology presets) and kconfigs/ (fragments).
 */
#include "job_datadir.h"
#include "install_dirs.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int has_data(const char *dir)
{
	struct stat st;
	char *q = xstrfmt("%s/qemu", dir), *k = xstrfmt("%s/kconfigs", dir);
	int ok = !stat(q, &st) && S_ISDIR(st.st_mode) && !stat(k, &st) &&
		 S_ISDIR(st.st_mode);
	free(q);
	free(k);
	return ok;
}

const char *job_data_dir(void)
{
	static char *found;
	static int looked;
	const char *env = getenv("IOBISECT_DATA");
	if (env && *env)
		return env;
	if (!looked) {
		/* The build folder first: a checkout keeps its data there. */
		const char *self = install_self_dir();
		char *installed = install_dir_path(INSTALL_DATA);
		looked = 1;
		if (self && has_data(self))
			found = xstrdup(self);
		else if (installed && has_data(installed))
			found = xstrdup(installed);
		free(installed);
	}
	return found ? found : ".";
}
