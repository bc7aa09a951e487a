/*
 * build_result.h: what a request for a kernel image came to (kbuild.h):
 * built by make, served from the cache, or taken from a prebuilt source.
 * Apart from kbuild.h because two modules answer with it: kbuild_image
 * hands a request with a prebuilt source to prebuilt_image (prebuilt.h),
 * which fills one without including kbuild.h back.
 */
#ifndef IOBISECT_BUILD_RESULT_H
#define IOBISECT_BUILD_RESULT_H

#include <stddef.h>

enum build_status {
	BUILD_OK,
	BUILD_FAILED,	    /* compile or link error (the commit's fault) */
	BUILD_CONFIG_ERROR, /* requested options dropped, config step failed */
	BUILD_SETUP_ERROR, /* bad repository, revision, fragment; no compiler */
};

struct build_result {
	enum build_status status;
	char commit[41];
	char key[41];	      /* all zero until known */
	char *image;	      /* cache_dir()/images/<key>/bzImage, on success */
	char *log;	      /* the build log, kept on failure too */
	int cached;	      /* served from the cache, make not run */
	double seconds;	      /* wall time of the whole request */
	long objects_rebuilt; /* .o files written by this build */
	char *first_error;    /* first compiler error line of the log */
	char *message;	      /* one line saying what went wrong */
	/*
	 * make compiles this configuration through ccache (kbuild_tools_
	 * ccache), known once the toolchain is: every commit built before
	 * is in ccache's hands. 0 for a prebuilt image.
	 */
	int ccache;
};
#define BUILD_RESULT_INIT                                                      \
	{                                                                      \
		BUILD_OK, {0}, {0}, NULL, NULL, 0, 0, 0, NULL, NULL, 0         \
	}

#endif
