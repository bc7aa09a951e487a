/*
 * install_dirs.c: where iobisect's parts are, found from the running
 * binary (install_dirs.h). The configured folders come from the build
 * (install_config.h, written by the Makefile from its install variables).
 */
#include "install_dirs.h"
#include "install_config.h"
#include "util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *install_self_dir(void)
{
	static char *dir;
	static int looked;
	char buf[PATH_MAX];
	ssize_t n;
	char *slash;

	if (looked)
		return dir;
	looked = 1;
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	dir = xstrdup(slash == buf ? "/" : buf);
	return dir;
}

/* The length of `p`'s next component, after any slashes at its start. */
static size_t component(const char **p)
{
	while (**p == '/')
		(*p)++;
	return strcspn(*p, "/");
}

char *install_relpath(const char *from, const char *to)
{
	struct strbuf out = STRBUF_INIT;
	const char *f = from, *t = to;

	/* Skip the components both share. */
	for (;;) {
		const char *f2 = f, *t2 = t;
		size_t fl = component(&f2), tl = component(&t2);
		if (!fl || fl != tl || strncmp(f2, t2, fl))
			break;
		f = f2 + fl;
		t = t2 + tl;
	}
	/* Up from what is left of `from`, then down what is left of `to`. */
	for (size_t n; (n = component(&f)); f += n)
		strbuf_addstr(&out, out.len ? "/.." : "..");
	while (*t == '/')
		t++;
	if (*t)
		strbuf_addf(&out, "%s%s", out.len ? "/" : "", t);
	if (!out.len)
		strbuf_addch(&out, '.');
	/* A trailing slash on `to` is not a component. */
	while (out.len > 1 && out.buf[out.len - 1] == '/')
		out.buf[--out.len] = '\0';
	return strbuf_detach(&out);
}

char *install_dir_path(enum install_dir which)
{
	const char *self = install_self_dir();
	const char *to = which == INSTALL_DATA ? IOBISECT_PKGDATADIR
					       : IOBISECT_PKGLIBEXECDIR;
	char *rel, *path;

	if (!self)
		return xstrdup(to);
	rel = install_relpath(IOBISECT_BINDIR, to);
	path = xstrfmt("%s/%s", self, rel);
	free(rel);
	/*
	 * The binary reached through a symlinked folder (/bin on a merged
	 * /usr) is not in bindir by its real path: the configured folder
	 * itself is then the one to try.
	 */
	if (access(path, F_OK)) {
		free(path);
		path = xstrdup(to);
	}
	return path;
}

char *install_find_part(const char *env, const char *name)
{
	const char *given = getenv(env);
	const char *dir = install_self_dir();
	char *installed;

	if (given && *given)
		return file_exists(given) ? xstrdup(given) : NULL;
	if (dir) {
		/* ./iobisect beside build/, or a test binary in build/tests/ */
		const char *rel[] = {"build/", "", "../"};
		for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
			char *cand = xstrfmt("%s/%s%s", dir, rel[i], name);
			if (file_exists(cand))
				return cand;
			free(cand);
		}
	}
	/* Where make install (or the package) put it, beside the binary's. */
	installed = install_dir_path(INSTALL_LIBEXEC);
	if (installed) {
		char *cand = xstrfmt("%s/%s", installed, name);
		free(installed);
		if (file_exists(cand))
			return cand;
		free(cand);
	}
	{
		char *cand = xstrfmt("build/%s", name);
		char *found = file_exists(cand) ? absolute_path(cand) : NULL;
		free(cand);
		return found;
	}
}
