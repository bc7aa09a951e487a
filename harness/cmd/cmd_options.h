/*
 * cmd_options.h: option entries that several commands' tables share
 * (options.h): the passthrough safety pair every command that boots
 * takes, and the executor's options every command that probes takes.
 * They live with the commands, not with the modules they configure
 * (safety.h, executor.h), which know nothing of a command line.
 */
#ifndef IOBISECT_CMD_OPTIONS_H
#define IOBISECT_CMD_OPTIONS_H

#include "executor.h"
#include "options.h"

/*
 * The passthrough options every command that boots takes, as two entries
 * of its option table (options.h): `--destroy-data-on DEV` (or `=DEV`)
 * and `--force`. A value on --force is refused, not taken for consent.
 */
#define OPT_SAFETY(destroy, force)                                             \
	OPT_STRING_F("--destroy-data-on", destroy, OPT_JOINED, "DEV",          \
		     "a passed-through disk the workload may write"),          \
		OPT_FLAG_F("--force", force, OPT_JOINED,                       \
			   "boot a passed-through disk that looks in use")

/*
 * --boots N: how many boots a command takes at once, one range for every
 * command, into an int. measure alone also takes 0 (build only): its
 * entry is OPT_BOOTS_OR_NONE.
 */
#define CMD_BOOTS_MAX 1000
#define OPT_BOOTS_F(v, f, h)                                                   \
	OPT_INT_F("--boots", v, 1, CMD_BOOTS_MAX, "a count of boots", f, "N", h)
#define OPT_BOOTS(v, h) OPT_BOOTS_F(v, 0, h)
#define OPT_BOOTS_OR_NONE(v, h)                                                \
	OPT_INT("--boots", v, 0, CMD_BOOTS_MAX, "a count of boots", "N", h)

/* The command-line options every command that probes takes. */
int cmd_opt_executor_kind(const struct opt *opt, const char *arg);
int cmd_opt_sbatch(const struct opt *opt, const char *arg);
/* clang-format off */
#define OPT_EXECUTOR(x)                                                        \
	OPT_CALLBACK("--executor", cmd_opt_executor_kind, (x), "local|slurm",     \
		     "where probes run (default: the job's, or local)"),       \
	OPT_STRING("--partition", &(x)->slurm.partition, "P",                 \
		   "sbatch --partition"),                                      \
	OPT_STRING("--account", &(x)->slurm.account, "A", "sbatch --account"), \
	OPT_STRING("--time-limit", &(x)->slurm.time_limit, "T",               \
		   "sbatch --time"),                                           \
	OPT_CALLBACK("--sbatch-arg", cmd_opt_sbatch, &(x)->slurm.extra,  \
		     "OPT", "one more sbatch option (again for more)"),        \
	OPT_UNSIGNED("--probes", &(x)->probes, 1, 64,                     \
		     "a number of commits at once", "K",                       \
		     "commits probed at once per round (Slurm)")
/* clang-format on */

#endif
