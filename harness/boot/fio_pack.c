/*
 * fio_pack.c: fio's part of a boot's initramfs (fio_pack.h).
 *
 * Debian's fio links 60-odd libraries (ceph, gluster, rdma, ICU: 80 MiB),
 * all of which the dynamic linker loads at start-up, so the archive is
 * large and worth making once: it is kept as
 * cache_dir()/fio/<sha1 of fio>.cpio, beside a manifest of the size and
 * modification time of every host file in it. A fio upgrade is another
 * hash; a library upgraded under the same fio (a glibc security update)
 * fails the manifest and the archive is made again.
 */
#include "fio_pack.h"
#include "proto/spec_keys.h"
#include "run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* 82 MiB for Debian 12's fio 3.33; room for a fatter build. */
#define FIO_ARCHIVE_MAX ((size_t)512 << 20)

int fio_pack_wanted(const char *spec)
{
	struct strvec lines = STRVEC_INIT;
	int found = 0;
	strvec_split(&lines, spec, '\n');
	for (size_t i = 0; i < lines.nr && !found; i++) {
		struct strvec words = STRVEC_INIT;
		strvec_split(&words, lines.v[i], ' ');
		found = words.nr && !strcmp(words.v[0], "point") &&
			strvec_index(&words, "engine=fio") >= 0;
		strvec_clear(&words);
	}
	strvec_clear(&lines);
	return found;
}

/* "<size> <mtime ns> /path" for every regular host file the archive holds. */
static void manifest_of(const struct initramfs *ir, struct strbuf *out)
{
	for (size_t i = 0; i < ir->names.nr; i++) {
		char *host = xstrfmt("/%s", ir->names.v[i]);
		struct stat st;
		if (!stat(host, &st) && S_ISREG(st.st_mode))
			strbuf_addf(out, "%lld %lld.%09ld %s\n",
				    (long long)st.st_size,
				    (long long)st.st_mtim.tv_sec,
				    st.st_mtim.tv_nsec, host);
		free(host);
	}
}

/* 1 when every file of the stored manifest is as it was. */
static int manifest_holds(const char *path)
{
	struct strbuf text = STRBUF_INIT;
	struct strvec lines = STRVEC_INIT;
	int ok = file_exists(path) && read_file(path, &text) == 0 && text.len;
	if (ok)
		strvec_split(&lines, text.buf, '\n');
	for (size_t i = 0; ok && i < lines.nr; i++) {
		long long size, sec;
		long nsec;
		int at = 0;
		struct stat st;
		if (!*lines.v[i])
			continue;
		ok = sscanf(lines.v[i], "%lld %lld.%ld %n", &size, &sec, &nsec,
			    &at) == 3 &&
		     at && !stat(lines.v[i] + at, &st) &&
		     st.st_size == size && st.st_mtim.tv_sec == sec &&
		     st.st_mtim.tv_nsec == nsec;
	}
	strvec_clear(&lines);
	strbuf_release(&text);
	return ok;
}

/* Make fio's archive and store it with its manifest. */
static int pack(const struct fio_build *b, const char *archive,
		const char *manifest)
{
	struct initramfs ir = INITRAMFS_INIT;
	struct strbuf list = STRBUF_INIT;
	int rc = initramfs_add_program(&ir, PROTO_FIO_PATH, b->path);
	if (!rc) {
		manifest_of(&ir, &list);
		initramfs_finish(&ir);
		/* The archive first: a manifest never vouches for a missing one. */
		rc = write_file_atomic(archive, ir.data.buf, ir.data.len);
		if (!rc)
			rc = write_file_atomic(manifest, list.buf, list.len);
	}
	strbuf_release(&list);
	initramfs_release(&ir);
	return rc;
}

int fio_pack_append(struct initramfs *ir)
{
	struct fio_build b;
	struct strbuf data = STRBUF_INIT;
	char *dir = NULL, *archive = NULL, *manifest = NULL;
	int rc = -1;

	if (fio_build_find(&b))
		return -1;
	dir = xstrfmt("%s/fio", cache_dir());
	archive = xstrfmt("%s/%s.cpio", dir, b.hash);
	manifest = xstrfmt("%s/%s.files", dir, b.hash);
	if (mkdir_below(cache_dir(), dir, 0755))
		goto out;
	if (!manifest_holds(manifest) && pack(&b, archive, manifest))
		goto out;
	if (read_file_max(archive, &data, FIO_ARCHIVE_MAX))
		goto out;
	initramfs_append_archive(ir, data.buf, data.len);
	rc = 0;
out:
	strbuf_release(&data);
	free(dir);
	free(archive);
	free(manifest);
	fio_build_release(&b);
	return rc;
}
