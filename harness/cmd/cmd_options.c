/* cmd_options.c: option entries shared by commands (cmd_options.h). */
#include "cmd_options.h"
#include "util.h"

#include <string.h>

int cmd_opt_executor_kind(const struct opt *opt, const char *arg)
{
	struct executor *x = opt->value;

	if (!strcmp(arg, "local"))
		x->kind = EXECUTOR_LOCAL;
	else if (!strcmp(arg, "slurm"))
		x->kind = EXECUTOR_SLURM;
	else
		return error("--executor: '%s' is not local or slurm", arg);
	x->kind_given = 1;
	return 0;
}

int cmd_opt_sbatch(const struct opt *opt, const char *arg)
{
	strvec_push(opt->value, arg);
	return 0;
}

int cmd_opt_probes(const struct opt *opt, const char *arg)
{
	long k;
	if (parse_long(arg, &k) || k < 1 || k > 64)
		return error("--probes: '%s' is not a number of commits at "
			     "once (1..64)",
			     arg);
	*(unsigned *)opt->value = (unsigned)k;
	return 0;
}

int cmd_opt_boots(const struct opt *opt, const char *arg)
{
	long min = opt->flags & OPT_BOOTS_NONE ? 0 : 1, n;

	if (parse_long(arg, &n) || n < min || n > CMD_BOOTS_MAX)
		return error("--boots: '%s' is not a count of boots (%ld..%d)",
			     arg, min, CMD_BOOTS_MAX);
	*(int *)opt->value = (int)n;
	return 0;
}
