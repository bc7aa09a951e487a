/*
 * fuzz_state.c: libFuzzer target for the bisection state loader: the JSON
 * text of bisect-state.json through json_loadb + state_from_json (what
 * state_load does after reading the file), then, when it loads, the
 * round trip through state_to_json and the `git bisect log` rendering a
 * resumed run performs. A corrupt or hostile state file must give one
 * error, never a crash or a leak.
 */
#include "state.h"
#include "util.h"

#include <jansson.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct strbuf quiet = STRBUF_INIT;
	struct bisect_state s;
	json_error_t jerr;
	json_t *root;

	error_capture(&quiet);
	strbuf_reset(&quiet);
	root = json_loadb((const char *)data, size, 0, &jerr);
	if (!root)
		return 0;
	if (!state_from_json(&s, root, "fuzz-state.json")) {
		struct strbuf log = STRBUF_INIT;
		struct bisect_state again;
		json_t *back = state_to_json(&s);
		/* What was loaded must save and load again. */
		if (!back || state_from_json(&again, back, "round-trip"))
			__builtin_trap();
		state_release(&again);
		json_decref(back);
		state_log(&s, &log);
		strbuf_release(&log);
	}
	state_release(&s);
	json_decref(root);
	return 0;
}
