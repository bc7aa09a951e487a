/*
 * job_datadir.c: where the data a job names by word lives (job_datadir.h):
 * the folder holding qemu/ (topology presets) and kconfigs/ (fragments).
 */
#include "job_datadir.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	static char *exe_dir;
	static int looked;
	const char *env = getenv("IOBISECT_DATA");
	if (env && *env)
		return env;
	if (!looked) {
		char buf[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
		looked = 1;
		if (n > 0) {
			buf[n] = '\0';
			char *slash = strrchr(buf, '/');
			if (slash) {
				*slash = '\0';
				if (has_data(buf))
					exe_dir = xstrdup(buf);
			}
		}
	}
	return exe_dir ? exe_dir : ".";
}
