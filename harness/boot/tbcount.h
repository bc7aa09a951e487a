/*
 * tbcount.h: the host's side of iobisect's QEMU plugin (qemu/plugin/,
 * proto/profile.h): where the plugin is, whether this host's QEMU loads
 * it, and what it wrote at the end of a profiled boot. The parse is
 * pure; finding and probing touch the file system and run QEMU.
 */
#ifndef IOBISECT_TBCOUNT_H
#define IOBISECT_TBCOUNT_H

#include "ksyms.h"
#include "util.h"

#include <stddef.h>
#include <stdint.h>

/* What the plugin counted inside the guest's windows. */
struct tbcount {
	unsigned windows;     /* windows the guest opened and closed */
	uint64_t user_insns;  /* guest user-space instructions in them */
	uint64_t kernel_insns; /* the sum of the counts */
	struct addr_count *counts; /* kernel addresses, as the file has them */
	size_t nr, alloc;
};
#define TBCOUNT_INIT { 0, 0, 0, NULL, 0, 0 }
void tbcount_release(struct tbcount *t);

/*
 * Parse the plugin's file (`text` of `len` bytes) read from `what`.
 * 0, or -1 after error() naming `what` and the line (a wrong first
 * line, a malformed count).
 */
int tbcount_parse(struct tbcount *out, const char *text, size_t len,
		  const char *what);

/*
 * The plugin: $IOBISECT_PLUGIN, else iobisect-tbcount.so in the first of
 * the parts' folders holding it (install_dirs.h), never the working
 * folder: QEMU runs the code of the plugin it loads. NULL when none
 * exists; caller frees.
 */
char *tbcount_find_plugin(void);

/*
 * Does `qemu` load `plugin`? 1 yes; 0 no, with one line saying why in
 * *why (caller frees): QEMU built without plugins, a plugin API this
 * plugin does not know, a path QEMU's options cannot carry (escaped,
 * as error lines are: it is printed); -1 after error() when QEMU could
 * not be asked.
 */
int tbcount_probe(const char *qemu, const char *plugin, char **why);

/*
 * The same, asked once per process for the job's QEMU, with the
 * plugin found by tbcount_find_plugin: 1 with *plugin (caller frees),
 * or 0 with *why. Never an error: a host that cannot profile says why.
 */
int tbcount_available(const char *qemu, char **plugin, char **why);

#endif
