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
