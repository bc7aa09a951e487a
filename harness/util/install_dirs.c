/*
 * install_dirs.c: where iobisect's parts are, found from the running
 * binary (install_dirs.h). The configured folders and the build tree
 * come from the build (install_config.h, written by the Makefile from
 * its install variables and its own folders).
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

/* Is `self` (a folder, links resolved) in the build tree of this build? */
static int in_build_tree(const char *self)
{
	char *src = realpath(IOBISECT_SRCDIR, NULL);
	char *obj = realpath(IOBISECT_BUILDDIR, NULL);
	size_t n = obj ? strlen(obj) : 0;
	int in =
		(src && !strcmp(self, src)) ||
		(obj && !strncmp(self, obj, n) && (!self[n] || self[n] == '/'));
	free(src);
	free(obj);
	return in;
}

static void push_once(struct strvec *out, char *dir)
{
	if (strvec_index(out, dir) < 0)
		strvec_push(out, dir);
	free(dir);
}

/*
 * The build tree's folder for `which`: the source folder holds the data;
 * the build folder the parts, and the tree's default build/ too (an
 * O=build-asan build has no guest of its own).
 */
static void build_tree_dirs(enum install_dir which, struct strvec *out)
{
	if (which == INSTALL_DATA) {
		push_once(out, xstrdup(IOBISECT_SRCDIR));
		return;
	}
	push_once(out, xstrdup(IOBISECT_BUILDDIR));
	push_once(out, xstrfmt("%s/build", IOBISECT_SRCDIR));
}

void install_dir_candidates(enum install_dir which, struct strvec *out)
{
	const char *self = install_self_dir();
	const char *to = which == INSTALL_DATA ? IOBISECT_PKGDATADIR
					       : IOBISECT_PKGLIBEXECDIR;
	int in_tree = self && in_build_tree(self);

	if (in_tree)
		build_tree_dirs(which, out);
	if (self) {
		char *rel = install_relpath(IOBISECT_BINDIR, to);
		push_once(out, xstrfmt("%s/%s", self, rel));
		free(rel);
	}
	/*
	 * The binary reached through a symlinked folder (/bin on a merged
	 * /usr) is not in bindir by its real path: the configured folder
	 * itself is then the one.
	 */
	push_once(out, xstrdup(to));
	/* A program copied out of its tree, while the tree is there. */
	if (!in_tree)
		build_tree_dirs(which, out);
}

void install_dirs_list(const struct strvec *dirs, struct strbuf *out)
{
	for (size_t i = 0; i < dirs->nr; i++)
		strbuf_addf(out, "%s'%s'",
			    !i		       ? ""
			    : i + 1 < dirs->nr ? ", "
					       : " or ",
			    dirs->v[i]);
}

char *install_find_part(const char *env, const char *name)
{
	const char *given = getenv(env);
	struct strvec dirs = STRVEC_INIT;
	char *found = NULL;

	if (given && *given)
		return file_exists(given) ? xstrdup(given) : NULL;
	install_dir_candidates(INSTALL_LIBEXEC, &dirs);
	for (size_t i = 0; !found && i < dirs.nr; i++) {
		char *cand = xstrfmt("%s/%s", dirs.v[i], name);
		if (file_exists(cand))
			found = cand;
		else
			free(cand);
	}
	strvec_clear(&dirs);
	return found;
}

char *install_part_looked(const char *env)
{
	const char *given = getenv(env);
	struct strvec dirs = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;

	if (given && *given) {
		char *raw = xstrfmt("%s names '%s', which does not exist",
				    env, given);
		char *safe = xstrdup_safe(raw);
		free(raw);
		return safe;
	}
	install_dir_candidates(INSTALL_LIBEXEC, &dirs);
	strbuf_addstr(&out, "not in ");
	install_dirs_list(&dirs, &out);
	strbuf_addf(&out, " (run make, or set %s to its path)", env);
	strvec_clear(&dirs);
	return strbuf_detach(&out);
}
