/*
 * initramfs.c: the newc cpio writer, the ELF reader that finds what a host
 * program needs to run in the guest, and where the guest and the host's
 * tools are (see initramfs.h). A boot's archive is boot_archive.c's.
 *
 * Libraries are found by reading the program's own ELF headers (PT_INTERP,
 * DT_NEEDED) rather than by running ldd or the interpreter with --list: that
 * runs nothing, works for any architecture's files, and gives the same answer
 * inside a sandbox that forbids exec of the dynamic linker.
 */
#include "initramfs.h"
#include "elf_file.h"
#include "install_dirs.h"

#include <elf.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Where the dynamic linker of a Debian x86-64 system looks by default. */
static const char *const lib_dirs[] = {
	"/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu",
	"/lib64",
	"/usr/lib64",
	"/lib",
	"/usr/lib",
};

void initramfs_release(struct initramfs *ir)
{
	strbuf_release(&ir->data);
	strvec_clear(&ir->names);
	ir->ino = 0;
	ir->finished = 0;
}

static void pad4(struct strbuf *sb)
{
	static const char zeros[4];
	if (sb->len % 4)
		strbuf_add(sb, zeros, 4 - sb->len % 4);
}

/* "/a/b/" -> "a/b": cpio names carry no leading or trailing slash. */
static char *entry_name(const char *path)
{
	while (*path == '/')
		path++;
	size_t n = strlen(path);
	while (n && path[n - 1] == '/')
		n--;
	return xstrndup(path, n);
}

static int has_name(const struct initramfs *ir, const char *name)
{
	for (size_t i = 0; i < ir->names.nr; i++)
		if (!strcmp(ir->names.v[i], name))
			return 1;
	return 0;
}

static void put_header(struct initramfs *ir, const char *name, mode_t mode,
		       size_t size, unsigned nlink, unsigned rmajor,
		       unsigned rminor)
{
	/*
	 * newc: magic, then 13 fields of 8 hex digits: ino, mode, uid, gid,
	 * nlink, mtime, filesize, devmajor, devminor, rdevmajor, rdevminor,
	 * namesize (with the NUL), check. mtime, uid, gid are 0 on purpose.
	 */
	strbuf_addf(
		&ir->data,
		"070701%08lX%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		++ir->ino, (unsigned)mode, 0u, 0u, nlink, 0u, size, 0u, 0u,
		rmajor, rminor, strlen(name) + 1, 0u);
	strbuf_add(&ir->data, name, strlen(name) + 1);
	pad4(&ir->data);
}

/* Add the missing parents of `name` as folders. */
static void add_parents(struct initramfs *ir, const char *name)
{
	char *copy = xstrdup(name);
	for (char *s = strchr(copy, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (*copy && !has_name(ir, copy)) {
			put_header(ir, copy, S_IFDIR | 0755, 0, 2, 0, 0);
			strvec_push(&ir->names, copy);
		}
		*s = '/';
	}
	free(copy);
}

/*
 * Common path of every entry: returns the entry name to use, or NULL when
 * the path is already in the archive (or cannot be added).
 */
static char *begin_entry(struct initramfs *ir, const char *path)
{
	if (ir->finished) {
		error("cannot add '%s': the archive is finished", path);
		return NULL;
	}
	char *name = entry_name(path);
	if (!*name || has_name(ir, name)) {
		free(name);
		return NULL;
	}
	add_parents(ir, name);
	return name;
}

static void add_entry(struct initramfs *ir, const char *path, mode_t mode,
		      const void *data, size_t len, unsigned nlink,
		      unsigned rmajor, unsigned rminor)
{
	char *name = begin_entry(ir, path);
	if (!name)
		return;
	put_header(ir, name, mode, len, nlink, rmajor, rminor);
	if (len) {
		strbuf_add(&ir->data, data, len);
		pad4(&ir->data);
	}
	strvec_push(&ir->names, name);
	free(name);
}

int initramfs_add_dir(struct initramfs *ir, const char *path, mode_t mode)
{
	if (ir->finished)
		return error("cannot add '%s': the archive is finished", path);
	add_entry(ir, path, S_IFDIR | (mode & 07777), NULL, 0, 2, 0, 0);
	return 0;
}

int initramfs_add_data(struct initramfs *ir, const char *path, mode_t mode,
		       const void *data, size_t len)
{
	if (ir->finished)
		return error("cannot add '%s': the archive is finished", path);
	add_entry(ir, path, S_IFREG | (mode & 07777), data, len, 1, 0, 0);
	return 0;
}

int initramfs_add_file(struct initramfs *ir, const char *path,
		       const char *host_path, mode_t mode)
{
	struct stat st;
	if (stat(host_path, &st))
		return error("cannot stat '%s': %s", host_path,
			     strerror(errno));
	if (!S_ISREG(st.st_mode))
		return error("cannot add '%s': not a regular file", host_path);
	struct strbuf sb = STRBUF_INIT;
	if (read_file(host_path, &sb))
		return -1;
	int rc = initramfs_add_data(ir, path, mode ? mode : st.st_mode, sb.buf,
				    sb.len);
	strbuf_release(&sb);
	return rc;
}

int initramfs_add_symlink(struct initramfs *ir, const char *path,
			  const char *target)
{
	if (ir->finished)
		return error("cannot add '%s': the archive is finished", path);
	/* A symlink's data is its target, without a NUL. */
	add_entry(ir, path, S_IFLNK | 0777, target, strlen(target), 1, 0, 0);
	return 0;
}

int initramfs_add_node(struct initramfs *ir, const char *path, mode_t type,
		       mode_t mode, unsigned major, unsigned minor)
{
	if (type != S_IFCHR && type != S_IFBLK)
		return error("cannot add '%s': not a device type", path);
	if (ir->finished)
		return error("cannot add '%s': the archive is finished", path);
	add_entry(ir, path, type | (mode & 07777), NULL, 0, 1, major, minor);
	return 0;
}

void initramfs_finish(struct initramfs *ir)
{
	if (ir->finished)
		return;
	put_header(ir, "TRAILER!!!", 0, 0, 1, 0, 0);
	/* The kernel reads in 512-byte blocks as cpio does; pad like it. */
	static const char zeros[512];
	if (ir->data.len % 512)
		strbuf_add(&ir->data, zeros, 512 - ir->data.len % 512);
	ir->finished = 1;
}

void initramfs_append_archive(struct initramfs *ir, const void *data,
			      size_t len)
{
	initramfs_finish(ir);
	strbuf_add(&ir->data, data, len);
}

int initramfs_write(struct initramfs *ir, const char *path)
{
	initramfs_finish(ir);
	return write_file_atomic(path, ir->data.buf, ir->data.len);
}

/* `dir` with $ORIGIN (or ${ORIGIN}) as the folder of `host_path`. */
static char *expand_origin(const char *dir, const char *host_path)
{
	const char *rest = NULL;
	if (!strncmp(dir, "$ORIGIN", 7))
		rest = dir + 7;
	else if (!strncmp(dir, "${ORIGIN}", 9))
		rest = dir + 9;
	if (!rest)
		return xstrdup(dir);
	char *copy = xstrdup(host_path);
	char *out = xstrfmt("%s%s", dirname(copy), rest);
	free(copy);
	return out;
}

static char *find_library(const char *name, const struct strvec *runpath,
			  const char *host_path)
{
	if (strchr(name, '/'))
		return file_exists(name) ? xstrdup(name) : NULL;
	for (size_t i = 0; i < runpath->nr; i++) {
		char *dir = expand_origin(runpath->v[i], host_path);
		char *cand = xstrfmt("%s/%s", dir, name);
		free(dir);
		if (file_exists(cand))
			return cand;
		free(cand);
	}
	for (size_t i = 0; i < ARRAY_SIZE(lib_dirs); i++) {
		char *cand = xstrfmt("%s/%s", lib_dirs[i], name);
		if (file_exists(cand))
			return cand;
		free(cand);
	}
	return NULL;
}

/* Add the interpreter and libraries `host_path` needs, recursively. */
static int add_deps(struct initramfs *ir, const char *host_path, int depth)
{
	if (depth > 16)
		return error("'%s': libraries nest too deep", host_path);
	struct strbuf sb = STRBUF_INIT;
	struct strvec needed = STRVEC_INIT, runpath = STRVEC_INIT;
	char *interp = NULL;
	int rc = -1;
	if (read_file(host_path, &sb) ||
	    elf_file_deps(&interp, &needed, &runpath, sb.buf, sb.len, host_path))
		goto out;
	if (interp) {
		char *name = entry_name(interp);
		int have = has_name(ir, name);
		free(name);
		if (!have && initramfs_add_file(ir, interp, interp, 0755))
			goto out;
	}
	for (size_t i = 0; i < needed.nr; i++) {
		char *lib = find_library(needed.v[i], &runpath, host_path);
		if (!lib) {
			error("cannot find '%s', needed by '%s'", needed.v[i],
			      host_path);
			goto out;
		}
		char *name = entry_name(lib);
		int have = has_name(ir, name);
		free(name);
		if (!have) {
			if (initramfs_add_file(ir, lib, lib, 0755) ||
			    add_deps(ir, lib, depth + 1)) {
				free(lib);
				goto out;
			}
		}
		free(lib);
	}
	rc = 0;
out:
	free(interp);
	strvec_clear(&needed);
	strvec_clear(&runpath);
	strbuf_release(&sb);
	return rc;
}

int initramfs_add_program(struct initramfs *ir, const char *path,
			  const char *host_path)
{
	if (initramfs_add_file(ir, path, host_path, 0755))
		return -1;
	return add_deps(ir, host_path, 0);
}

/*
 * Which spec lines call for which tool. A line's directive word and one of
 * its key=value words select the tool.
 */
static const struct {
	const char *directive, *word, *tool;
} tool_rules[] = {
	{"md", "method=mdadm", "mdadm"},
	{"dm", "method=dmsetup", "dmsetup"},
	{"loop", "method=losetup", "losetup"},
	{"fs", "type=ext4", "mke2fs"},
	{"fs", "type=ext3", "mke2fs"},
	{"fs", "type=ext2", "mke2fs"},
	{"fs", "type=xfs", "mkfs.xfs"},
};

static void push_unique(struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return;
	strvec_push(sv, s);
}

void initramfs_tools_for_spec(struct strvec *tools, const char *spec)
{
	struct strvec lines = STRVEC_INIT;
	strvec_split(&lines, spec, '\n');
	for (size_t i = 0; i < lines.nr; i++) {
		struct strvec words = STRVEC_INIT;
		strvec_split(&words, lines.v[i], ' ');
		for (size_t r = 0; words.nr && r < ARRAY_SIZE(tool_rules);
		     r++) {
			if (strcmp(words.v[0], tool_rules[r].directive))
				continue;
			for (size_t w = 1; w < words.nr; w++)
				if (!strcmp(words.v[w], tool_rules[r].word))
					push_unique(tools, tool_rules[r].tool);
		}
		strvec_clear(&words);
	}
	strvec_clear(&lines);
}

char *initramfs_find_guest(void)
{
	return install_find_part("IOBISECT_GUEST", "iobisect-guest");
}

char *initramfs_guest_looked(void)
{
	return install_part_looked("IOBISECT_GUEST");
}
