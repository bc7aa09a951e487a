/*
 * job_datadir.h: where the data a job names by word lives (job_datadir.c).
 * A header of its own, not job.h's: the kconfig module reads its fragments
 * from there, and the job parser reads kconfig's default fragments.
 */
#ifndef IOBISECT_JOB_DATADIR_H
#define IOBISECT_JOB_DATADIR_H

/*
 * Where presets (qemu/<name>.json) and fragments (kconfigs/) live:
 * $IOBISECT_DATA, else the folder of the iobisect binary (a build
 * folder), else where `make install` put them relative to the binary
 * (install_dirs.h: <bindir>/../share/iobisect), else the current folder.
 */
const char *job_data_dir(void);

#endif
