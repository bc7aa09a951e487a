/*
 * cmd.h: the subcommands of iobisect, one file each (cmd_<name>.c). Each
 * takes the arguments after its name and returns the process exit code.
 */
#ifndef IOBISECT_CMD_H
#define IOBISECT_CMD_H

#include "exit_code.h" /* what every command returns */

int cmd_build(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_measure(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_upload(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_help(int argc, char **argv);

#include <stdio.h>
/* The commands and what they do, on `f`: 0 on stdout, 128 on stderr. */
int cmd_help_usage(FILE *f);

#endif
