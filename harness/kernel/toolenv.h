/*
 * toolenv.h: where a toolchain runs. A kernel from 2004 needs a compiler
 * from then, which the host's Debian does not carry, so a toolchain entry
 * may name an environment holding one: a command prefix ("schroot -c
 * jessie --", "podman run --rm -v {src}:{src} -v {out}:{out} gcc:4.9")
 * with placeholders for the source and build folders, or a chroot folder
 * (a debootstrap of an old release), entered with the folders bound at
 * their own paths in a mount namespace of the build's own, so nothing
 * outlives the build. Every command of a build (the config step, make, the
 * compiler's --version for the key) goes through toolenv_run.
 *
 * An environment's identity goes into the build key: its description, the
 * full --version of its compilers and linker inside it, and the output of
 * an optional identity command on the host (an image digest), so two
 * environments never share an image.
 */
#ifndef IOBISECT_TOOLENV_H
#define IOBISECT_TOOLENV_H

#include "util.h"

struct run_opts;

enum toolenv_kind {
	TOOLENV_HOST,	/* the host's own compilers */
	TOOLENV_PREFIX, /* a command prefix: schroot, podman, docker */
	TOOLENV_CHROOT, /* a chroot folder (needs root) */
};

struct toolenv {
	enum toolenv_kind kind;
	struct strvec prefix;	/* TOOLENV_PREFIX: words with {src}, {out} */
	char *root;		/* TOOLENV_CHROOT: the folder */
	struct strvec identity; /* a host command naming the environment */
};

/* The placeholders a prefix may use. */
extern const char *const toolenv_placeholders[];

void toolenv_release(struct toolenv *env);

/* Pure parts. */

/*
 * The command line that runs `argv` in `env` with the extra environment
 * `vars` ("NAME=value", NULL-terminated or NULL), the source and build
 * folders `src` and `out`: the host's argv as it is; otherwise the
 * expanded prefix (or "chroot ROOT"), then "env" and the vars (a container
 * does not inherit the caller's environment), then argv.
 */
void toolenv_argv(struct strvec *out, const struct toolenv *env,
		  const char *src, const char *objdir, const char *const *vars,
		  const char *const *argv);

/*
 * The environment's part of a toolchain identity: "" for the host, else
 * "env=<prefix words|chroot:ROOT> id=<hash of `versions` and `identity`>"
 * where versions is the compilers' and linker's full --version text in
 * it and identity the identity command's output (or NULL). Caller frees.
 */
char *toolenv_id(const struct toolenv *env, const char *versions,
		 const char *identity);

/* The World. */

/*
 * Run o->argv in `env`, src and objdir bound (a chroot) or substituted (a
 * prefix); as run_command otherwise. A chroot also gets the folder an
 * absolute "CCACHE_DIR=" entry of o->env names, so its ccache shares the
 * host's cache. A chroot needs root: without it, one
 * error saying so and -1.
 */
int toolenv_run(const struct toolenv *env, const char *src, const char *objdir,
		const struct run_opts *o);

/*
 * Run `argv` in `env` and keep its standard output in `out`. 0, or -1
 * after error() naming the command.
 */
int toolenv_output(const struct toolenv *env, const char *src,
		   const char *objdir, const char *const *argv,
		   struct strbuf *out);

/*
 * The identity text (toolenv_id) of `env` for the compilers cc and hostcc
 * (and the linker ld): each one's --version run in it. NULL after error().
 */
char *toolenv_identify(const struct toolenv *env, const char *cc,
		       const char *hostcc, const char *src, const char *objdir);

#endif
