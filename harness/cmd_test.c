/* cmd_test.c: placeholder until the module lands (being written now). */
#include "cmd.h"
#include "util.h"

int cmd_test(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("'test' is not built yet"), 128;
}
