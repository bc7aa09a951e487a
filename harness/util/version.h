/*
 * version.h: which iobisect this is (version.c): the release, and the
 * build's `git describe`, so a figure can be traced to the program that
 * made it. `iobisect --version` prints them; every stored document,
 * report.txt and the HTML page carry version_string().
 */
#ifndef IOBISECT_VERSION_H
#define IOBISECT_VERSION_H

/* The release ("0.1.0"), the Makefile's VERSION. */
const char *version_release(void);
/* `git describe --always --dirty` of the build, or "unknown" outside git. */
const char *version_describe(void);
/* Both, as documents carry them: "0.1.0 (git v0.1.0-3-gabc1234)". */
const char *version_string(void);

#endif
