/*
 * kbuild_tools.c: the compilers a kernel is built with (see
 * kbuild_tools.h).
 */
#include "kbuild_tools.h"
#include "run.h"
#include "toolenv.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The host's own compilers: a toolchain entry with no environment. */
static const struct toolenv host_env = {TOOLENV_HOST, STRVEC_INIT, NULL,
					STRVEC_INIT};

/* First line of `cc --version` in env, the compiler's identity in keys. */
static char *compiler_version(const struct toolenv *env, const char *cc,
			      const char *dir)
{
	const char *argv[] = {cc, "--version", NULL};
	struct strbuf sb = STRBUF_INIT;
	char *line = NULL;

	if (!toolenv_output(env, dir, dir, argv, &sb))
		line = xstrndup(sb.buf, strcspn(sb.buf, "\n"));
	strbuf_release(&sb);
	return line;
}

/*
 * The host's ccache folder, for a chroot that has a ccache of its own:
 * bound in, it serves the chroot's compiler the objects the same compiler
 * made on the host (ccache tells compilers apart by size and date, which a
 * Debian package gives alike in both). NULL when either has no ccache.
 */
static char *chroot_ccache_dir(const struct toolenv *env)
{
	const char *argv[] = {"ccache", "--get-config", "cache_dir", NULL};
	struct strbuf sb = STRBUF_INIT;
	char *inside = xstrfmt("%s/usr/bin/ccache", env->root);
	char *host = run_which("ccache"), *dir = NULL;

	if (host && !access(inside, X_OK) &&
	    !toolenv_output(&host_env, NULL, NULL, argv, &sb)) {
		strbuf_trim(&sb);
		if (sb.buf[0] == '/' && !mkdir_p(sb.buf, 0755))
			dir = strbuf_detach(&sb);
	}
	strbuf_release(&sb);
	free(inside);
	free(host);
	return dir;
}

/*
 * Whether make runs the compilers through ccache: the host's on a host
 * build, the chroot's with the host's folder bound in (*shared); a
 * prefix's environment (a container) may not see the host's cache: none.
 */
static int ccache_on(const struct kbuild_tools *t, char **shared)
{
	char *host;
	int on;

	*shared = t->env->kind == TOOLENV_CHROOT ? chroot_ccache_dir(t->env)
						 : NULL;
	if (t->env->kind != TOOLENV_HOST)
		return *shared != NULL;
	host = run_which("ccache");
	on = host != NULL;
	free(host);
	return on;
}

int kbuild_tools_pick(struct kbuild_tools *t,
		      const struct toolchain_rule *rules, size_t nr,
		      unsigned kver)
{
	const struct toolchain_rule *tc = kbuild_pick_toolchain(rules, nr, kver);

	t->env = tc ? &tc->env : &host_env;
	t->cc = tc && tc->cc ? tc->cc : "gcc";
	t->hostcc = tc && tc->hostcc ? tc->hostcc : t->cc;
	if (t->env->kind == TOOLENV_HOST) {
		if (!(t->cc_path = run_which(t->cc)))
			return error("compiler '%s' not found", t->cc);
		if (!(t->hostcc_path = run_which(t->hostcc)))
			return error("compiler '%s' not found", t->hostcc);
	} else {
		/*
		 * An environment is asked before any slot is taken: its
		 * folders are the trees' top, which holds every slot's.
		 */
		t->probe_dir = xstrfmt("%s/trees", cache_dir());
		if (mkdir_below(cache_dir(), t->probe_dir, 0755) ||
		    !(t->env_id = toolenv_identify(t->env, t->cc, t->hostcc,
						   t->probe_dir, t->probe_dir)))
			return -1;
	}
	if (!(t->cc_version = compiler_version(t->env, t->cc, t->probe_dir)))
		return -1;
	t->id = kbuild_toolchain_id(t->cc, t->hostcc, t->cc_version, t->env_id);
	t->ccache = ccache_on(t, &t->ccache_dir);
	return 0;
}

void kbuild_tools_settings(const struct kbuild_tools *t, struct strvec *vars,
			   struct strvec *menv)
{
	/*
	 * ccache keeps compiled objects across build folders, slots,
	 * repositories and runs: paths under trees/ are made relative
	 * (base_dir), and the build folder is not hashed when a fragment
	 * turns debug information on (the objects' comp_dir may then name
	 * another tree; bzImage carries no debug information).
	 */
	if (t->ccache_dir)
		strvec_pushf(menv, "CCACHE_DIR=%s", t->ccache_dir);
	if (t->ccache) {
		strvec_pushf(vars, "CC=ccache %s", t->cc);
		strvec_pushf(vars, "HOSTCC=ccache %s", t->hostcc);
		strvec_pushf(menv, "CCACHE_BASEDIR=%s/trees", cache_dir());
		strvec_push(menv, "CCACHE_NOHASHDIR=1");
		/*
		 * Depend mode: a miss is compiled once, its dependencies taken
		 * from kbuild's own -MMD file, where the default mode runs the
		 * preprocessor as well (bench/ccache-cold.sh).
		 */
		strvec_push(menv, "CCACHE_DEPEND=1");
	} else {
		strvec_pushf(vars, "CC=%s", t->cc);
		strvec_pushf(vars, "HOSTCC=%s", t->hostcc);
	}
}

void kbuild_tools_release(struct kbuild_tools *t)
{
	free(t->cc_path);
	free(t->hostcc_path);
	free(t->cc_version);
	free(t->env_id);
	free(t->id);
	free(t->probe_dir);
	free(t->ccache_dir);
	memset(t, 0, sizeof(*t));
}
