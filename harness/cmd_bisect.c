/* cmd_bisect.c: placeholder until the module lands (being written now). */
#include "cmd.h"
#include "util.h"

int cmd_bisect(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'bisect' is not built yet"), 128;
}
