/*
 * cmd_json.h: `--json`, as every command that takes it keeps it: one JSON
 * document on the standard output and nothing else there. While held,
 * the standard output (the descriptor, so the children a command starts
 * too: a kernel build, QEMU) goes to the standard error, where the
 * progress already goes: the lines a person reads are still shown, and
 * no printf a command keeps for people can slip into the document's
 * stream. The document's keys carry their units (_mbps, _pct, _s), as the
 * stored documents' do.
 */
#ifndef IOBISECT_CMD_JSON_H
#define IOBISECT_CMD_JSON_H

#include <jansson.h>

/* Send the standard output to the standard error. 0, or -1 after error(). */
int cmd_json_hold(void);
/*
 * Give the standard output back and write `doc` there (its reference is
 * taken; NULL: nothing is written, as after an error said on stderr).
 * 0, or -1 after error().
 */
int cmd_json_put(json_t *doc);

#endif
