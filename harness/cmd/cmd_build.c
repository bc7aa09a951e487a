/*
 * cmd_build.c: `iobisect build`, one kernel image from a repository and a
 * revision, through the build cache. Prints where the image is, its key,
 * how long it took and whether make ran at all.
 */
#include "cmd.h"
#include "kbuild.h"
#include "kconfig.h"
#include "options.h"
#include "util.h"

#include <stdio.h>

#define BUILD_SYNOPSIS "--repo PATH --commit REV [options]"

int cmd_build(int argc, char **argv)
{
	const char *repo = NULL, *rev = NULL, *fragments = NULL;
	const char *base = "tiny", *cc = NULL, *hostcc = NULL;
	struct build_request req = {0};
	struct kconfig_spec spec = {0};
	struct toolchain_rule rule = {0};
	struct build_result res = BUILD_RESULT_INIT;
	int no_cache = 0, code;
	const struct opt opts[] = {
		OPT_FLAG("--no-cache", &no_cache,
			 "build even when the cache holds the image"),
		OPT_STRING("--repo", &repo, "PATH",
			   "the kernel git repository"),
		OPT_STRING("--commit", &rev, "REV", "the commit to build"),
		OPT_STRING("--kconfig", &fragments, "a,b,...",
			   "the fragments to merge on the base"),
		OPT_STRING("--base", &base, "tiny|CONFIG", "the base config"),
		OPT_STRING("--cc", &cc, "CC", "the compiler"),
		OPT_STRING("--hostcc", &hostcc, "CC",
			   "the host programs' compiler"),
		OPT_INT("--jobs", &req.jobs, 1, 1024, "a number of jobs", "N",
			"make -j N"),
		OPT_INT("-j", &req.jobs, 1, 1024, "a number of jobs", "N",
			"make -j N"),
		OPT_END(),
	};

	if (opt_parse_command("build", BUILD_SYNOPSIS, opts, argc, argv,
			      &code))
		return code;
	if (no_cache)
		req.flags |= BUILD_NO_CACHE;
	if (!repo || !rev) {
		error("build needs --repo and --commit");
		opt_usage_short(stderr, "build", BUILD_SYNOPSIS, opts);
		return EXIT_ABORT;
	}
	if (cache_dir_check())
		return EXIT_ABORT;

	spec.base = (char *)base;
	strvec_split(&spec.fragments,
		     fragments ? fragments : KCONFIG_DEFAULT_FRAGMENTS, ',');
	if (cc || hostcc) {
		rule.cc = (char *)(cc ? cc : "gcc");
		rule.hostcc = (char *)hostcc;
		req.toolchains = &rule;
		req.nr_toolchains = 1;
	}
	req.repo = repo;
	req.rev = rev;
	req.kconfig = &spec;

	int ok = !kbuild_image(&res, &req);
	char took[32];
	format_duration(took, sizeof(took), res.seconds);
	code = 0;
	if (ok) {
		printf("image   %s\n", res.image);
		printf("key     %s\n", res.key);
		printf("commit  %s\n", res.commit);
		printf("time    %s\n", took);
		if (res.cached)
			printf("cache   hit (make not run)\n");
		else
			printf("cache   miss (%ld objects rebuilt)\n",
			       res.objects_rebuilt);
	} else {
		error("%s", res.message);
		if (res.log)
			printf("log     %s\n", res.log);
		code = res.status == BUILD_SETUP_ERROR ? EXIT_ABORT : 1;
	}
	build_result_release(&res);
	strvec_clear(&spec.fragments);
	return code;
}
