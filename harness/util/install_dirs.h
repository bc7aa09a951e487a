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
 * environment variable is needed.
 */
#ifndef IOBISECT_INSTALL_DIRS_H
#define IOBISECT_INSTALL_DIRS_H

enum install_dir {
	INSTALL_DATA,	 /* datadir/iobisect: qemu/ and kconfigs/ */
	INSTALL_LIBEXEC, /* libexecdir/iobisect: iobisect-guest, the QEMU plugin */
};

/* The folder of the running program (/proc/self/exe), or NULL. */
const char *install_self_dir(void);

/*
 * Where `which` is for a program installed as this one was configured:
 * the binary's folder followed by the configured path from bindir to it
 * ("<self>/../share/iobisect"), or, when that does not exist or the
 * binary's folder is unknown, the configured folder itself. Caller frees.
 */
char *install_dir_path(enum install_dir which);

/*
 * A part of the program installed beside it (the guest, the QEMU plugin)
 * by its file name: $`env` when set (and only there), else beside the
 * running binary (./iobisect beside build/, a test binary in
 * build/tests/), else in the libexec folder, else in ./build. NULL when
 * nowhere; caller frees.
 */
char *install_find_part(const char *env, const char *name);

/*
 * The path from folder `from` to `to`, both absolute and without "."
 * or ".." ("/usr/bin", "/usr/share/x": "../share/x"; the same: ".").
 * Pure; the caller frees.
 */
char *install_relpath(const char *from, const char *to);

#endif
