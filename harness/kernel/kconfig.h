/*
 * kconfig.h: the kernel configuration of a build: which fragments apply to
 * a kernel version, their merged text, the config step (allnoconfig with
 * the fragments for the "tiny" base, olddefconfig on a full base), and the
 * check that every requested option survived it.
 */
#ifndef IOBISECT_KCONFIG_H
#define IOBISECT_KCONFIG_H

#include "kver.h"
#include "util.h"

struct toolenv;

/* Fragments added only for kernels in a version range (kconfig.by_version). */
struct kconfig_rule {
	struct kver_range range;
	struct strvec fragments;
};

struct kconfig_spec {
	char *base; /* "tiny" (default) or a path to a full .config */
	struct strvec fragments; /* names in kconfigs/ ("md") or paths */
	struct kconfig_rule *rules;
	size_t nr_rules;
};

/* The fragments when a job or the command line names none. */
#define KCONFIG_DEFAULT_FRAGMENTS "base,virtio,nvme,md,dm,loop,ext4,xfs,nullb"

/*
 * The fragment names (or paths) that apply to kernel `kver`: the spec's
 * own, then those of every rule whose range holds kver, in order, each
 * once. Pure.
 */
void kconfig_select_fragments(const struct kconfig_spec *spec, unsigned kver,
			      struct strvec *out);

/*
 * Where fragment `name` lives: a name without '/' is
 * job_data_dir()/kconfigs/NAME.config; anything else is a path. Caller
 * frees. Error "unknown kconfig fragment 'X'" when it does not exist.
 */
char *kconfig_fragment_path(const char *name);

/*
 * The selected fragments' text concatenated, each preceded by a comment
 * naming it, and a trailer that keeps the kernel release free of the
 * build's own version marks (LOCALVERSION_AUTO off, empty LOCALVERSION).
 */
int kconfig_merge(const struct kconfig_spec *spec, unsigned kver,
		  struct strbuf *merged);

/*
 * The options a merged text asks for, "CONFIG_X=val" ("CONFIG_X=n" for
 * "# CONFIG_X is not set"), in order, the last setting of each. Pure.
 */
void kconfig_requested(const char *merged, struct strvec *out);

/*
 * Requested options of `merged` missing from the final `dotconfig` text, as
 * "CONFIG_FOO=y (now: not set)" entries. Returns how many. Pure.
 */
int kconfig_check(const char *merged, const char *dotconfig,
		  struct strvec *dropped);

/*
 * Identity of a configuration for build keys: the hash of the base
 * ("tiny" or the full base file's content) and the options the merged
 * fragments ask for, as Kconfig reads them (the last setting of each): a
 * comment, a repeat or a fragment that asks nothing new keeps the key.
 * The full base is read from disk.
 */
int kconfig_hash(const struct kconfig_spec *spec, const char *merged,
		 char out[41]);

struct kconfig_step {
	const char *srcdir;	      /* kernel sources */
	const char *objdir;	      /* O= build folder */
	const char *base;	      /* "tiny"/NULL or a full .config path */
	const char *merged;	      /* kconfig_merge's text */
	const char *const *make_vars; /* "ARCH=x86_64", "CC=..." */
	const char *const *env;	      /* extra environment for make */
	const char *log;	      /* output appended here */
	/* Where make runs (a chroot, a container); NULL: the host. */
	const struct toolenv *toolenv;
};

/*
 * Configure objdir: allnoconfig with KCONFIG_ALLCONFIG for the tiny base,
 * or the base copied to .config, the fragments appended and olddefconfig
 * (oldconfig answering defaults on trees without olddefconfig). An
 * unchanged result keeps the old .config's mtime, so make does not redo
 * its config work. Returns 0, -1 when make failed, -2 when requested
 * options were dropped (the error lists them all).
 */
int kconfig_configure(const struct kconfig_step *step);

#endif
