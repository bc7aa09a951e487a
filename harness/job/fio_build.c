/* fio_build.c: the host's fio (fio_build.h). */
#include "fio_build.h"
#include "elf_file.h"
#include "run.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int fio_build_find(struct fio_build *out)
{
	struct strbuf bin = STRBUF_INIT;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->path = run_find_tool("fio");
	if (!out->path)
		return error("fio is not installed on this host: apt-get "
			     "install fio (scripts/deps.sh installs it)");
	if (read_file(out->path, &bin))
		goto out;
	hash_hex(bin.buf, bin.len, out->hash);
	/*
	 * glibc's start files put the floor the library was built for
	 * into every program it links (.note.ABI-tag), and its dynamic
	 * linker stops ("FATAL: kernel too old") on anything older.
	 */
	if (elf_file_abi_tag(bin.buf, bin.len, out->kernel_min) != 0)
		out->kernel_min[0] = '\0';
	rc = 0;
out:
	if (rc)
		fio_build_release(out);
	strbuf_release(&bin);
	return rc;
}

void fio_build_release(struct fio_build *b)
{
	free(b->path);
	b->path = NULL;
}
