/* cmd_run.c: placeholder until the module lands (being written now). */
#include "cmd.h"
#include "util.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'run' is not built yet"), 128;
}
