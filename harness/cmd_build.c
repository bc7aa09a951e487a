/* cmd_build.c: placeholder until the module lands (being written now). */
#include "cmd.h"
#include "util.h"

int cmd_build(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'build' is not built yet"), 128;
}
