/*
 * results_path.c: where things live in the results store (the layout in
 * results.h), in one place: a job's folder and its files (the bisect
 * state, the report, the Slurm tasks' documents), a commit's folder, a
 * boot's folder; and back, a boot's number from its files' names.
 * Nothing else builds these paths.
 */
#include "results.h"
#include "results_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *results_job_dir(const char *root, const char *job)
{
	return xstrfmt("%s/%s", root, job);
}

char *results_job_file(const char *root, const char *job, const char *name)
{
	return xstrfmt("%s/%s/%s", root, job, name);
}

char *results_commit_dir(const char *root, const char *job, const char *commit)
{
	char c[13];

	results_commit_abbrev(commit, c);
	return xstrfmt("%s/%s/%s", root, job, c);
}

void results_commit_abbrev(const char *commit, char out[13])
{
	size_t i = 0;
	if (!commit || !*commit)
		commit = "none";
	for (; i < 12 && commit[i]; i++) {
		char c = commit[i];
		/* A label is a folder name: no separators, no dot-files. */
		out[i] = (c == '/' || c <= ' ' || (i == 0 && c == '.')) ? '_' : c;
	}
	out[i] = '\0';
}

char *results_boot_dir(const char *root, const char *job, const char *commit,
		       const char *topology, const char *engine)
{
	char c[13];
	results_commit_abbrev(commit, c);
	return xstrfmt("%s/%s/%s/%s-%s", root, job, c, topology, engine);
}

/* "boot-12.json", "boot-12.console.log", "boot-12-sample-0.json" -> 12. */
long results_boot_number(const char *name)
{
	char *end;
	if (strncmp(name, "boot-", 5))
		return -1;
	long n = strtol(name + 5, &end, 10);
	if (end == name + 5 || n < 0 ||
	    (*end != '.' && strncmp(end, "-sample-", 8)))
		return -1;
	return n;
}
