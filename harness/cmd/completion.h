/*
 * completion.h: iobisect's bash completion, made from its tables
 * (completion.c): the commands, each command's options, the job keys
 * `--set` takes (the workload's and the topology's too) and the values
 * of those that have a few, the presets `--topology` takes, the engines
 * `--workload` takes, and a revision's refs, asked of git. docs/completion/
 * holds it, written by `make man`; a unit check fails when it differs.
 */
#ifndef IOBISECT_COMPLETION_H
#define IOBISECT_COMPLETION_H

struct strbuf;

/* Append the bash completion script to `out`. 0, or -1 after error(). */
int completion_bash(struct strbuf *out);

#endif
