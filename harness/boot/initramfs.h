/*
 * initramfs.h: the guest's root file system, written as a newc cpio archive
 * by iobisect itself (no external cpio). The archive is built in memory,
 * entry by entry, with every mtime, uid and gid zero and inode numbers
 * counted from 1, so the same inputs always give the same bytes.
 *
 * boot_archive.h puts one boot's archive together from these pieces.
 */
#ifndef IOBISECT_INITRAMFS_H
#define IOBISECT_INITRAMFS_H

#include "util.h"
#include <sys/types.h>

struct initramfs {
	struct strbuf data;  /* the archive so far */
	struct strvec names; /* paths already in it, without the leading '/' */
	unsigned long ino;   /* last inode number handed out */
	int finished;	     /* trailer written */
};
#define INITRAMFS_INIT                                                         \
	{                                                                      \
		STRBUF_INIT, STRVEC_INIT, 0, 0                                 \
	}

void initramfs_release(struct initramfs *ir);

/*
 * Paths are absolute in the guest ("/bin/mdadm"). Missing parent folders are
 * added first (mode 0755), because the kernel's unpacker does not create
 * them. Adding a path twice is not an error: the first entry stays, so a
 * library two programs need is stored once.
 */
int initramfs_add_dir(struct initramfs *ir, const char *path, mode_t mode);
int initramfs_add_data(struct initramfs *ir, const char *path, mode_t mode,
		       const void *data, size_t len);
/* A host file; mode 0 keeps the host file's permission bits. */
int initramfs_add_file(struct initramfs *ir, const char *path,
		       const char *host_path, mode_t mode);
int initramfs_add_symlink(struct initramfs *ir, const char *path,
			  const char *target);
/* `type` is S_IFCHR or S_IFBLK. */
int initramfs_add_node(struct initramfs *ir, const char *path, mode_t type,
		       mode_t mode, unsigned major, unsigned minor);
/*
 * A dynamically linked host program at `path`, plus its ELF interpreter
 * and every shared library it needs (transitively, read from PT_INTERP and
 * DT_NEEDED), each stored at its host path. Static programs go in alone.
 */
int initramfs_add_program(struct initramfs *ir, const char *path,
			  const char *host_path);
/* Append the TRAILER!!! entry; no entries may follow. */
void initramfs_finish(struct initramfs *ir);
/* Finish if needed and write the archive to `path` atomically. */
int initramfs_write(struct initramfs *ir, const char *path);

/*
 * Append `len` bytes of another finished newc archive after this one's
 * trailer (the kernel unpacks concatenated archives in turn); finishes
 * `ir` first. Nothing may be added after.
 */
void initramfs_append_archive(struct initramfs *ir, const void *data,
			      size_t len);

/*
 * The host tools a spec text needs ("mdadm", "mke2fs", ...), by the
 * methods and file systems it names. Pure.
 */
void initramfs_tools_for_spec(struct strvec *tools, const char *spec);


/*
 * The guest program: $IOBISECT_GUEST, else iobisect-guest in the first of
 * the parts' folders holding it (install_dirs.h: the build tree's for a
 * binary in it, <bindir>/../libexec/iobisect, the configured folder, the
 * build tree's), never the working folder. NULL when none exists; caller
 * frees. initramfs_guest_looked says where it looked, for an error line.
 */
char *initramfs_find_guest(void);
char *initramfs_guest_looked(void);

#endif
