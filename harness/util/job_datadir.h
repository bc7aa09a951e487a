/*
 * job_datadir.h: where the data a job names by word lives (job_datadir.c).
 * A header of its own, not job.h's: the kconfig module reads its fragments
 * from there, and the job parser reads kconfig's default fragments.
 */
#ifndef IOBISECT_JOB_DATADIR_H
#define IOBISECT_JOB_DATADIR_H

#include "util.h"

/*
 * Where presets (qemu/<name>.json) and fragments (kconfigs/) live:
 * $IOBISECT_DATA, else the first of the data folders (install_dirs.h:
 * the build tree's for a binary in it, where `make install` put them
 * relative to the binary, the configured folder, the build tree's) that
 * holds qemu/ and kconfigs/. NULL when none does: never the working
 * folder, which is anyone's (job_data_looked says where it looked).
 */
const char *job_data_dir(void);

/* The first of `dirs` holding qemu/ and kconfigs/, or NULL. */
const char *job_data_pick(const struct strvec *dirs);

/*
 * Where job_data_dir looked, for the line that says a preset or fragment
 * is missing: "no qemu/ and kconfigs/ in 'a' or 'b'; set IOBISECT_DATA
 * ...", or the folder $IOBISECT_DATA names. Caller frees.
 */
char *job_data_looked(void);

#endif
