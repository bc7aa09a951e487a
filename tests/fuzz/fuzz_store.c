/*
 * fuzz_store.c: libFuzzer target for the results-store reader: the input
 * is up to four documents separated by NUL bytes, written into a small
 * store (two sample documents of one commit, one of another, and the
 * sweep state that orders them), then read back the ways report, compare
 * and the bisect's reuse check read a store: scan_load, every series
 * compared, the HTML and JSON rendered, and results_load_samples. A
 * hostile store must give results or warnings, never a crash or a leak.
 */
#include "html.h"
#include "results.h"
#include "store_scan.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char root[64];
static char *paths[4];

static void cleanup(void)
{
	remove_tree(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const rel[] = {
		"j/aaaaaaaaaaaa/virtio-rawread/bs_kb=4/boot-1-sample-0.json",
		"j/aaaaaaaaaaaa/virtio-rawread/bs_kb=4/boot-2-sample-0.json",
		"j/bbbbbbbbbbbb/virtio-rawread/bs_kb=4/boot-1-sample-0.json",
		"j/sweep-state.json",
	};
	(void)argc;
	(void)argv;
	/* Memory, not disk, when there is a tmpfs: four writes per run. */
	snprintf(root, sizeof(root), "%s/fuzz_store.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(root))
		abort();
	atexit(cleanup);
	for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
		char *dir;
		paths[i] = xstrfmt("%s/%s", root, rel[i]);
		dir = xstrndup(paths[i], strrchr(paths[i], '/') - paths[i]);
		mkdir_p(dir, 0755);
		free(dir);
	}
	return 0;
}

static void read_store(void)
{
	struct scan s;
	struct html_options o = HTML_OPTIONS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct machine_id m = MACHINE_ID_INIT;
	struct sample_set set = SAMPLE_SET_INIT;

	if (!scan_load_flags(&s, root, "j", SCAN_STATE_OPTIONAL)) {
		for (size_t i = 0; i < s.nr_series; i++)
			for (size_t a = 0; a < s.nr_commits; a++)
				for (size_t b = 0; b < s.nr_commits; b++) {
					struct scan_compare c;
					if (s.series[i].cells[a].nr &&
					    s.series[i].cells[b].nr)
						scan_compare(&s.series[i], a, b,
							     &c);
				}
		(void)html_render(&s, &o, &out);
		json_decref(html_report_json(&s, &o));
		scan_release(&s);
	}
	/* The identity the seeds carry: build key k, spec hash s, tcg. */
	m.accel = "tcg";
	if (!results_load_samples(root, "j", "aaaaaaaaaaaa", "k", "s", &m,
				  "bs_kb=4", "read", &set))
		sample_set_release(&set);
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct strbuf quiet = STRBUF_INIT;
	const uint8_t *p = data, *end = data + size;

	error_capture(&quiet);
	strbuf_reset(&quiet);
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		const uint8_t *nul = p < end ? memchr(p, 0, end - p) : NULL;
		size_t n = nul ? (size_t)(nul - p) : (size_t)(end - p);
		unlink(paths[i]);
		if (p < end)
			write_file_atomic(paths[i], p, n);
		p += n + (nul != NULL);
	}
	read_store();
	error_capture(NULL);
	return 0;
}
