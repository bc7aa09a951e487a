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

const char *job_data_pick(const struct strvec *dirs)
{
	for (size_t i = 0; i < dirs->nr; i++)
		if (has_data(dirs->v[i]))
			return dirs->v[i];
	return NULL;
}

/* The candidates, found once: the binary does not move while it runs. */
static const struct strvec *candidates(void)
{
	static struct strvec dirs = STRVEC_INIT;
	static int looked;
	if (!looked) {
		install_dir_candidates(INSTALL_DATA, &dirs);
		looked = 1;
	}
	return &dirs;
}

const char *job_data_dir(void)
{
	const char *env = getenv("IOBISECT_DATA");
	if (env && *env)
		return env;
	return job_data_pick(candidates());
}

char *job_data_looked(void)
{
	const char *env = getenv("IOBISECT_DATA");
	struct strbuf out = STRBUF_INIT;

	if (env && *env)
		return xstrfmt("IOBISECT_DATA names '%s'", env);
	strbuf_addstr(&out, "no qemu/ and kconfigs/ in ");
	install_dirs_list(candidates(), &out);
	strbuf_addstr(&out, "; set IOBISECT_DATA to the folder holding them");
	return strbuf_detach(&out);
}
