/*
 * kbuild.h: turning "repository + commit + kconfig spec + toolchain map"
 * into a bzImage, at most once per build key. The key is (tree id, config
 * hash, toolchain identity) and maps to cache_dir()/images/<key>/; a miss
 * checks the commit out into iobisect's private source tree and builds it
 * in a build folder reused across commits, so make rebuilds only what
 * changed.
 */
#ifndef IOBISECT_KBUILD_H
#define IOBISECT_KBUILD_H

#include "build_result.h"
#include "kconfig.h"
#include "kver.h"
#include "toolenv.h"

struct prebuilt_source;

/* kernel version range -> compilers (toolchain map). */
struct toolchain_rule {
	struct kver_range range;
	char *cc;	    /* "gcc-12" */
	char *hostcc;	    /* NULL: same as cc */
	struct toolenv env; /* where they run: the host unless a job says */
};

enum build_flags {
	BUILD_NO_CACHE = 1 << 0, /* build even when the key is cached */
	BUILD_QUIET = 1 << 1,	 /* no progress on stderr, even on a terminal */
	/*
	 * The image's System.map is wanted beside it (a profile): an image
	 * cached before maps were kept gets its map (kmap.h), or is built
	 * again when no build folder still holds it.
	 */
	BUILD_WANT_MAP = 1 << 2,
	/*
	 * The list of files the image was made from is wanted beside it (a
	 * bisection's endpoints, inputs.h): the same, from its build folder
	 * or by building again.
	 */
	BUILD_WANT_INPUTS = 1 << 3,
	/* Only what the cache holds: a miss is BUILD_SETUP_ERROR, not built. */
	BUILD_CACHE_ONLY = 1 << 4,
};

struct build_request {
	const char *repo; /* repository path */
	const char *rev;  /* any revision repo_resolve accepts */
	const struct kconfig_spec *kconfig;
	const struct toolchain_rule *toolchains; /* first match wins */
	size_t nr_toolchains;
	/* Set: the image comes from here and nothing is built (prebuilt.h). */
	const struct prebuilt_source *prebuilt;
	unsigned flags; /* enum build_flags */
	int jobs;	/* make -j; 0: the number of online CPUs */
	unsigned slot;	/* builds at once use different slots (lanes.h) */
};

/*
 * Build (or fetch from the cache) the kernel image of req, or take it from
 * req->prebuilt when set (prebuilt_image). Returns 0 when
 * out->status is BUILD_OK, -1 otherwise; nothing is printed on stderr
 * except progress: the reason is in out->message, for the caller to say.
 */
int kbuild_image(struct build_result *out, const struct build_request *req);
void build_result_release(struct build_result *res);

/*
 * Whether the cache holds the image of build key `key`, or its remembered
 * failure: a request for it would run no make.
 */
int kbuild_cached(const char *key);

/* Pure parts, for tests and for callers that report. */

/* The build key: hash of the three identities. */
void kbuild_key(const char *tree_id, const char *config_hash,
		const char *toolchain_id, char out[41]);

/*
 * The toolchain's identity: "cc=<cc> hostcc=<hostcc> <first line of
 * cc --version>", then the environment's part (toolenv_id) when it has
 * one. Pure: the caller supplies the version line and env_id (NULL or ""
 * for the host).
 */
char *kbuild_toolchain_id(const char *cc, const char *hostcc,
			  const char *version_line, const char *env_id);

/* The rule for kernel `kver` (first whose range holds it), or NULL. */
const struct toolchain_rule *
kbuild_pick_toolchain(const struct toolchain_rule *rules, size_t nr,
		      unsigned kver);

/*
 * The first compiler or make error of a build log ("file.c:12:3: error:
 * ..." first, else a line with "Error"), without its newline, or NULL.
 * Caller frees.
 */
char *kbuild_first_error(const char *log);
/* "path.c:12:3: error: ..." or "path.c:12: error: ...": the tree's own. */
int kbuild_is_compiler_error(const char *line, size_t len);

const char *build_status_name(enum build_status s);

#endif
