/*
 * fuzz_job.c: libFuzzer target for the job-file parser (job_parse in
 * harness/job/job.c): any text must give a job or one error, never a crash,
 * a leak or undefined behaviour. Presets come from the tree's qemu/
 * (IOBISECT_DATA is set to the source folder at start-up).
 */
#include "guest_spec.h"
#include "job.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef IOBISECT_SRC
#define IOBISECT_SRC "."
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("IOBISECT_DATA", IOBISECT_SRC, 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct strbuf quiet = STRBUF_INIT;
	struct job job;
	char *text;

	error_capture(&quiet);
	strbuf_reset(&quiet);
	text = xstrndup((const char *)data, size);
	if (!job_parse(&job, text, "fuzz.json")) {
		/* What the other modules read of a job must be there: */
		(void)job_check_bisect(&job);
		/* each topology's spec, as a boot renders it for the guest. */
		for (size_t t = 0; t < job.nr_topologies; t++) {
			struct strbuf spec = STRBUF_INIT;
			(void)guest_spec_render(&job, (int)t, "fuzz", 1, &spec);
			strbuf_release(&spec);
		}
		job_release(&job);
	}
	free(text);
	return 0;
}
