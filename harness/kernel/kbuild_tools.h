/*
 * kbuild_tools.h: the compilers a kernel is built with (the job's
 * toolchain entry for its version, or the host's gcc), where they run,
 * their part of the build key, and make's settings for them, ccache
 * included.
 */
#ifndef IOBISECT_KBUILD_TOOLS_H
#define IOBISECT_KBUILD_TOOLS_H

#include "kbuild.h"
#include "util.h"

struct kbuild_tools {
	const struct toolenv *env; /* where the compilers run */
	const char *cc, *hostcc;
	char *cc_path, *hostcc_path; /* found on the host (no environment) */
	char *cc_version;	     /* the first line of cc --version */
	char *env_id;		     /* the environment's identity, or NULL */
	char *id;		     /* the toolchain's part of the build key */
	char *probe_dir;	     /* an environment's folder for questions */
	/*
	 * Found once, when picked (a chroot's is a question to ccache).
	 * Through ccache (the host's, or a chroot's sharing the host's
	 * folder), objects outlive the build folders (build_warm.h).
	 */
	int ccache;	  /* make compiles through ccache */
	char *ccache_dir; /* the host's folder, bound into a chroot, or NULL */
};

/*
 * The tools for a kernel of version `kver` (kver.h) from the job's
 * toolchain rules: found, asked their versions, identified. 0, or -1
 * after error() naming what is missing.
 */
int kbuild_tools_pick(struct kbuild_tools *t,
		      const struct toolchain_rule *rules, size_t nr,
		      unsigned kver);
/* make's CC and HOSTCC in `vars`, ccache's settings in its environment. */
void kbuild_tools_settings(const struct kbuild_tools *t, struct strvec *vars,
			   struct strvec *menv);
void kbuild_tools_release(struct kbuild_tools *t);

#endif
