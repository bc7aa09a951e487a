/*
 * version.c: the release and the build's git describe (version.h), from
 * version_config.h, which the Makefile rewrites when either changes (so
 * only this file is compiled again at a new commit).
 */
#include "version.h"
#include "version_config.h"

const char *version_release(void)
{
	return IOBISECT_RELEASE;
}

const char *version_describe(void)
{
	return IOBISECT_DESCRIBE;
}

const char *version_string(void)
{
	return IOBISECT_RELEASE " (git " IOBISECT_DESCRIBE ")";
}
