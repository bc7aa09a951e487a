/*
 * toolenv.c: running a build's commands in a toolchain's environment (see
 * toolenv.h).
 */
#include "toolenv.h"

#include "run.h"
#include "template.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const toolenv_placeholders[] = {"src", "out", NULL};

void toolenv_release(struct toolenv *env)
{
	strvec_clear(&env->prefix);
	strvec_clear(&env->identity);
	free(env->root);
	memset(env, 0, sizeof(*env));
}

void toolenv_argv(struct strvec *out, const struct toolenv *env,
		  const char *src, const char *objdir, const char *const *vars,
		  const char *const *argv)
{
	const char *values[] = {src, objdir, NULL};

	switch (env->kind) {
	case TOOLENV_HOST:
		break;
	case TOOLENV_PREFIX:
		template_expand_words(out, &env->prefix, toolenv_placeholders,
				      values);
		break;
	case TOOLENV_CHROOT:
		strvec_push(out, "chroot");
		strvec_push(out, env->root);
		break;
	}
	if (env->kind != TOOLENV_HOST && vars && *vars) {
		strvec_push(out, "env");
		for (const char *const *v = vars; *v; v++)
			strvec_push(out, *v);
	}
	for (const char *const *a = argv; *a; a++)
		strvec_push(out, *a);
}

char *toolenv_id(const struct toolenv *env, const char *versions,
		 const char *identity)
{
	struct strbuf what = STRBUF_INIT, sb = STRBUF_INIT;
	char hex[41];

	if (env->kind == TOOLENV_HOST)
		return xstrdup("");
	if (env->kind == TOOLENV_CHROOT) {
		strbuf_addf(&what, "chroot:%s", env->root);
	} else {
		for (size_t i = 0; i < env->prefix.nr; i++)
			strbuf_addf(&what, "%s%s", i ? " " : "",
				    env->prefix.v[i]);
	}
	strbuf_addf(&sb, "versions\n%s\nidentity\n%s\n",
		    versions ? versions : "", identity ? identity : "");
	hash_hex(sb.buf, sb.len, hex);
	strbuf_release(&sb);
	strbuf_addf(&sb, "env=%s id=%.16s", what.buf, hex);
	strbuf_release(&what);
	return strbuf_detach(&sb);
}

/* The chroot's mounts, made in the child just before it execs chroot. */
struct chroot_mounts {
	const char *root;
	/* The source and build folders and the compiler cache, or NULL. */
	const char *binds[3];
};

/* The folder a "CCACHE_DIR=" entry of `vars` names, or NULL. */
static const char *vars_ccache_dir(const char *const *vars)
{
	static const char name[] = "CCACHE_DIR=";

	for (; vars && *vars; vars++)
		if (!strncmp(*vars, name, sizeof(name) - 1) &&
		    (*vars)[sizeof(name) - 1] == '/')
			return *vars + sizeof(name) - 1;
	return NULL;
}

/* `path` under the chroot, made when missing, for a mount on it. */
static int chroot_point(const char *root, const char *path, char **out)
{
	*out = xstrfmt("%s%s", root, path);
	return mkdir_p(*out, 0755);
}

/*
 * In a mount namespace of the child's own, private so nothing reaches the
 * host's: the folders bound at their own paths (make is handed absolute
 * ones), /dev and /proc for the tools. The namespace dies with the build.
 */
static int chroot_setup(void *payload)
{
	const struct chroot_mounts *m = payload;
	char *at = NULL;
	int rc = -1;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(m->binds); i++) {
		if (!m->binds[i])
			continue;
		if (chroot_point(m->root, m->binds[i], &at) ||
		    mount(m->binds[i], at, NULL, MS_BIND | MS_REC, NULL))
			goto out;
		free(at);
		at = NULL;
	}
	if (chroot_point(m->root, "/dev", &at) ||
	    mount("/dev", at, NULL, MS_BIND | MS_REC, NULL))
		goto out;
	free(at);
	if (chroot_point(m->root, "/proc", &at) ||
	    mount("proc", at, "proc", 0, NULL))
		goto out;
	rc = 0;
out:
	free(at);
	return rc;
}

int toolenv_run(const struct toolenv *env, const char *src, const char *objdir,
		const struct run_opts *o)
{
	struct run_opts wrapped = *o;
	struct strvec argv = STRVEC_INIT;
	struct chroot_mounts mounts = {
		env->root, {src, objdir, vars_ccache_dir(o->env)}};
	int rc;

	if (env->kind == TOOLENV_HOST)
		return run_command(o);
	if (env->kind == TOOLENV_CHROOT && geteuid() != 0)
		return error("chroot '%s' needs root (or give a prefix such "
			     "as 'schroot -c NAME --')",
			     env->root);
	toolenv_argv(&argv, env, src, objdir, o->env, o->argv);
	wrapped.argv = (const char *const *)argv.v;
	if (env->kind == TOOLENV_CHROOT) {
		wrapped.setup = chroot_setup;
		wrapped.payload = &mounts;
	}
	rc = run_command(&wrapped);
	strvec_clear(&argv);
	return rc;
}

int toolenv_output(const struct toolenv *env, const char *src,
		   const char *objdir, const char *const *argv,
		   struct strbuf *out)
{
	char tmp[] = "/tmp/iobisect-toolenv.XXXXXX";
	struct run_opts o = RUN_OPTS_INIT;
	int fd = mkstemp(tmp), rc;

	if (fd < 0)
		return error("cannot create a temporary file: %s",
			     strerror(errno));
	close(fd);
	o.argv = argv;
	o.stdout_path = tmp;
	/* A container may pull its image first. */
	o.timeout_ms = env->kind == TOOLENV_HOST ? 30000 : 600000;
	rc = toolenv_run(env, src, objdir, &o);
	if (rc == 0)
		rc = read_file(tmp, out);
	else
		rc = error("'%s' failed%s%s", argv[0],
			   env->kind == TOOLENV_HOST ? "" : " in ",
			   env->kind == TOOLENV_CHROOT	 ? env->root
			   : env->kind == TOOLENV_PREFIX ? env->prefix.v[0]
							 : "");
	unlink(tmp);
	return rc ? -1 : 0;
}

char *toolenv_identify(const struct toolenv *env, const char *cc,
		       const char *hostcc, const char *src, const char *objdir)
{
	const char *tools[] = {cc, hostcc, "ld"};
	struct strbuf versions = STRBUF_INIT, identity = STRBUF_INIT;
	char *id = NULL;

	for (size_t i = 0; i < 3; i++) {
		const char *argv[] = {tools[i], "--version", NULL};
		if (i == 1 && !strcmp(hostcc, cc))
			continue;
		if (toolenv_output(env, src, objdir, argv, &versions))
			goto out;
	}
	if (env->identity.nr) {
		struct toolenv host = {TOOLENV_HOST, STRVEC_INIT, NULL,
				       STRVEC_INIT};
		if (toolenv_output(&host, NULL, NULL,
				   (const char *const *)env->identity.v,
				   &identity))
			goto out;
	}
	id = toolenv_id(env, versions.buf, identity.buf);
out:
	strbuf_release(&versions);
	strbuf_release(&identity);
	return id;
}
