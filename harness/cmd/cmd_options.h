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
 * --boots N: how many boots a command takes at once, the same range for
 * every command, into the int at opt->value. 1 to CMD_BOOTS_MAX; with
 * OPT_BOOTS_NONE in the entry's flags 0 too (measure: build only).
 */
#define CMD_BOOTS_MAX 1000
enum { OPT_BOOTS_NONE = 1 << 8 };
int cmd_opt_boots(const struct opt *opt, const char *arg);

/* The command-line options every command that probes takes. */
int cmd_opt_executor_kind(const struct opt *opt, const char *arg);
int cmd_opt_sbatch(const struct opt *opt, const char *arg);
int cmd_opt_probes(const struct opt *opt, const char *arg);
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
	OPT_CALLBACK("--probes", cmd_opt_probes, &(x)->probes, "K",      \
		     "commits probed at once per round (Slurm)")
/* clang-format on */

#endif
