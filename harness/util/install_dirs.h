/*
 * install_dirs.h: where iobisect's parts are (install_dirs.c): its
 * presets and Kconfig fragments, and the guest program, whether it runs
 * from its build folder or from where `make install` or the Debian
 * package put it.
 *
 * The installed folders are found from the running binary's own folder,
 * by the path from bindir to each that the build was configured with
 * (as git's RUNTIME_PREFIX does): an install staged in a DESTDIR, or a
 * prefix moved whole, works as the configured one does, and no
 * environment variable is needed. The build tree's folders are written
 * into the build as absolute paths (install_config.h): a program is led
 * to its parts by where it was built and installed, never by the folder
 * it runs in.
 */
#ifndef IOBISECT_INSTALL_DIRS_H
#define IOBISECT_INSTALL_DIRS_H

#include "util.h"

enum install_dir {
	INSTALL_DATA,	 /* datadir/iobisect: qemu/ and kconfigs/ */
	INSTALL_LIBEXEC, /* libexecdir/iobisect: iobisect-guest, the QEMU plugin */
};

/* The folder of the running program (/proc/self/exe), or NULL. */
const char *install_self_dir(void);

/*
 * The folders where `which` may be, best first, each once (the caller
 * pushes them on `out`): when the running binary is in the build tree it
 * was built in (./iobisect in the source folder, build/iobisect, a test
 * in build/tests/), that tree's; then the binary's folder followed by the
 * configured path from bindir to `which` ("<self>/../share/iobisect");
 * then the configured folder itself; then, for a binary copied out of
 * its tree, that tree's. Never the working folder: a copied binary run
 * in a folder someone else filled would load its plugin and presets.
 * The build tree's folder for data is the source folder; for parts its
 * build folder, then the tree's build/.
 */
void install_dir_candidates(enum install_dir which, struct strvec *out);

/* `dirs` for a message: "'a'", "'a' or 'b'", "'a', 'b' or 'c'". */
void install_dirs_list(const struct strvec *dirs, struct strbuf *out);

/*
 * A part of the program (the guest, the QEMU plugin) by its file name:
 * $`env` when set (and only there), else in the first of the parts'
 * folders (install_dir_candidates) that holds it. NULL when nowhere;
 * caller frees.
 */
char *install_find_part(const char *env, const char *name);

/*
 * Why install_find_part found nothing, for an error line: the variable's
 * missing file ("ENV names 'x', which does not exist"), or the folders
 * it looked in and what to do ("not in 'a' or 'b' (run make, or set ENV
 * to its path)").
 * Caller frees.
 */
char *install_part_looked(const char *env);

/*
 * The path from folder `from` to `to`, both absolute and without "."
 * or ".." ("/usr/bin", "/usr/share/x": "../share/x"; the same: ".").
 * Pure; the caller frees.
 */
char *install_relpath(const char *from, const char *to);

#endif
