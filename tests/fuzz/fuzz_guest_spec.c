/*
 * fuzz_guest_spec.c: libFuzzer target for the guest's /spec parser
 * (workloads/spec.c, built for the host). The spec comes from the host,
 * but a broken host, a truncated initramfs or a hand-made spec must give
 * a spec or one `error` frame, never a crash or a write past the guest's
 * fixed tables. What parses is read back as the engines and layer makers
 * read it. Run with -close_fd_mask=3: the guest frames to stdout and
 * talks on stderr.
 */
#include "../../workloads/spec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void read_back(const struct spec_line *lines, int nr)
{
	for (int i = 0; i < nr; i++) {
		const struct spec_line *l = &lines[i];
		(void)spec_name(l);
		for (int k = 0; k < l->nr; k++) {
			uint64_t u;
			double d;
			(void)spec_get(l, l->kv[k].key);
			(void)spec_u64(l, l->kv[k].key, 0, &u);
			(void)spec_double(l, l->kv[k].key, 0, &d);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct spec s;
	char *text = malloc(size + 1);

	memcpy(text, data, size);
	text[size] = '\0';
	if (!spec_parse(&s, text)) {
		read_back(s.disks, s.nr_disks);
		read_back(s.layers, s.nr_layers);
		read_back(s.points, s.nr_points);
	}
	free(text);
	return 0;
}
