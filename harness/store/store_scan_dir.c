/*
 * store_scan_dir.c: which folder of a results folder is the job a scan
 * reads (store_scan_priv.h), and the names of the documents that tell a
 * job's folder from any other.
 */
#include "store_scan_priv.h"
#include "util.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_dir(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* "boot-3-sample-0.json" -> 3; -1 for anything else. */
long scan_sample_boot(const char *name)
{
	char *end;
	size_t n = strlen(name);
	if (strncmp(name, "boot-", 5) || n < 5 || strcmp(name + n - 5, ".json"))
		return -1;
	long b = strtol(name + 5, &end, 10);
	if (end == name + 5 || b < 0 || strncmp(end, "-sample-", 8))
		return -1;
	return b;
}

/*
 * Is there a boot document (boot-N.json, or boot-N-sample-I.json when
 * `sample`) `depth` folders below `dir`?
 */
static int has_boot_file(const char *dir, int depth, int sample)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (!depth) {
			found = sample ? scan_sample_boot(e->d_name) >= 0 :
					 !strncmp(e->d_name, "boot-", 5) &&
						 !strstr(e->d_name, "-sample-");
			continue;
		}
		char *sub = xstrfmt("%s/%s", dir, e->d_name);
		found = has_boot_file(sub, depth - 1, sample);
		free(sub);
	}
	closedir(d);
	return found;
}

/* Does `dir` hold <commit>/profile.json (iobisect profile, profile.h)? */
static int has_profile(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = xstrfmt("%s/%s/profile.json", dir, e->d_name);
		found = file_exists(p);
		free(p);
	}
	if (d)
		closedir(d);
	return found;
}

/*
 * Does `dir` hold <commit>/<topology>-<engine>/boot-N.json (or at least
 * <commit>/<topology>-<engine>/<point>/boot-N-sample-I.json)?
 */
static int looks_like_job(const char *dir)
{
	return has_boot_file(dir, 2, 0) || has_boot_file(dir, 3, 1) ||
	       has_profile(dir);
}

/* Is the job folder `dir` the job `job`: its last name, as given or real? */
static int is_job_named(const char *dir, const char *job)
{
	size_t n = strlen(dir), m = strlen(job);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n >= m && !strncmp(dir + n - m, job, m) &&
	    (n == m || dir[n - m - 1] == '/'))
		return 1;
	char *real = realpath(dir, NULL);
	const char *slash = real ? strrchr(real, '/') : NULL;
	int same = slash && !strcmp(slash + 1, job);
	free(real);
	return same;
}

/*
 * Of a results root's jobs, the one asked for, or the only one: sets
 * `out->dir`, or says which jobs there are.
 */
static int pick_job_of_root(struct scan *out, const char *dir,
			    const char *job)
{
	struct strvec jobs = STRVEC_INIT;
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *j = xstrfmt("%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && looks_like_job(j))
			strvec_push(&jobs, e->d_name);
		free(j);
	}
	if (d)
		closedir(d);
	/* A job asked for by name is that job or none. */
	if (jobs.nr == 1 && !job)
		out->dir = xstrfmt("%s/%s", dir, jobs.v[0]);
	else if (!jobs.nr)
		error("no results under '%s'", dir);
	else if (job)
		error("no job '%s' under '%s' (%s '%s'%s)", job, dir,
		      jobs.nr == 1 ? "its job is" : "its jobs are", jobs.v[0],
		      jobs.nr > 1 ? "..." : "");
	else
		error("'%s' holds %zu jobs ('%s', '%s'...): name one "
		      "with --job",
		      dir, jobs.nr, jobs.v[0], jobs.v[1]);
	strvec_clear(&jobs);
	return out->dir ? 0 : -1;
}

int scan_find_job_dir(struct scan *out, const char *dir, const char *job)
{
	if (!is_dir(dir))
		return error("'%s' is not a results folder", dir);
	/* A job is a folder of the results folder: "../.." would leave it. */
	if (job && (!*job || job[0] == '.' || strchr(job, '/')))
		return error("'%s' is not the name of a job in '%s'", job, dir);
	if (job) {
		char *j = xstrfmt("%s/%s", dir, job);
		if (is_dir(j) && looks_like_job(j))
			out->dir = j;
		else
			free(j);
	}
	if (!out->dir) {
		char *state = xstrfmt("%s/bisect-state.json", dir);
		if (file_exists(state) || looks_like_job(dir))
			out->dir = xstrdup(dir);
		free(state);
		/* A job folder named, but another job asked for. */
		if (out->dir && job && !is_job_named(dir, job)) {
			free(out->dir);
			out->dir = NULL;
			return error("no job '%s' in '%s', the folder of "
				     "another job",
				     job, dir);
		}
	}
	if (!out->dir)
		return pick_job_of_root(out, dir, job);
	return 0;
}

