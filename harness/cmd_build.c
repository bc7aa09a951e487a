/*
 * cmd_build.c: `iobisect build`, one kernel image from a repository and a
 * revision, through the build cache. Prints where the image is, its key,
 * how long it took and whether make ran at all.
 */
#include "cmd.h"
#include "kbuild.h"
#include "kconfig.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static const char build_usage[] =
	"usage: iobisect build --repo PATH --commit REV [--kconfig a,b,...]\n"
	"                      [--base tiny|CONFIG] [--cc CC] [--hostcc CC]\n"
	"                      [--jobs N] [--no-cache]\n";

int cmd_build(int argc, char **argv)
{
	const char *repo = NULL, *rev = NULL, *fragments = NULL;
	const char *base = "tiny", *cc = NULL, *hostcc = NULL;
	struct build_request req = {0};
	struct kconfig_spec spec = {0};
	struct toolchain_rule rule = {{0, 0}, NULL, NULL};
	struct build_result res = BUILD_RESULT_INIT;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **dst = NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(build_usage, stdout);
			return 0;
		} else if (!strcmp(a, "--no-cache")) {
			req.flags |= BUILD_NO_CACHE;
			continue;
		} else if (!strcmp(a, "--repo")) {
			dst = &repo;
		} else if (!strcmp(a, "--commit")) {
			dst = &rev;
		} else if (!strcmp(a, "--kconfig")) {
			dst = &fragments;
		} else if (!strcmp(a, "--base")) {
			dst = &base;
		} else if (!strcmp(a, "--cc")) {
			dst = &cc;
		} else if (!strcmp(a, "--hostcc")) {
			dst = &hostcc;
		} else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
			long n;
			if (i + 1 >= argc || parse_long(argv[i + 1], &n) ||
			    n < 1 || n > 1024) {
				error("'%s' needs a number of jobs", a);
				return EXIT_ABORT;
			}
			req.jobs = (int)n;
			i++;
			continue;
		} else {
			error("unknown option '%s'", a);
			fputs(build_usage, stderr);
			return EXIT_ABORT;
		}
		if (i + 1 >= argc) {
			error("'%s' needs a value", a);
			return EXIT_ABORT;
		}
		*dst = argv[++i];
	}
	if (!repo || !rev) {
		error("build needs --repo and --commit");
		fputs(build_usage, stderr);
		return EXIT_ABORT;
	}

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
	int code = 0;
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
