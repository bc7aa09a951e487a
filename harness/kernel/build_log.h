/*
 * build_log.h: what a cached image's build.log says of the build that
 * made it ("# objdir PATH", "# srcdir PATH" at its top, kbuild.c), so
 * that what is kept beside an image since (its System.map, its inputs)
 * can be taken from that build folder while it still holds the image.
 */
#ifndef IOBISECT_BUILD_LOG_H
#define IOBISECT_BUILD_LOG_H

/* The value of the "# NAME VALUE" line of imgdir/build.log, or NULL. */
char *build_log_value(const char *imgdir, const char *name);

/*
 * 1 when the build folder its log names still holds imgdir's bzImage,
 * byte for byte (its last build was this one), with *objdir (caller
 * frees) set; 0 when not.
 */
int build_log_folder(const char *imgdir, char **objdir);

#endif
