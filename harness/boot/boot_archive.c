/*
 * boot_archive.c: the initramfs one boot starts from (boot_archive.h),
 * put together from the pieces initramfs.c writes and finds, with fio's
 * archive (fio_pack.h) after the rest when a point runs fio.
 */
#include "boot_archive.h"
#include "fio_pack.h"
#include "initramfs.h"
#include "run.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int add_tool(struct initramfs *ir, const char *tool)
{
	char *host = run_find_tool(tool);
	if (!host) {
		warning("'%s' is not installed on the host; the guest will "
			"run without it",
			tool);
		return 0;
	}
	char *dest = xstrfmt("/bin/%s", tool);
	int rc = initramfs_add_program(ir, dest, host);
	free(dest);
	free(host);
	if (rc)
		return rc;
	if (!strcmp(tool, "mke2fs")) {
		/* The names mke2fs answers to; its defaults file if any. */
		initramfs_add_symlink(ir, "/bin/mkfs.ext4", "mke2fs");
		initramfs_add_symlink(ir, "/bin/mkfs.ext3", "mke2fs");
		initramfs_add_symlink(ir, "/bin/mkfs.ext2", "mke2fs");
		if (file_exists("/etc/mke2fs.conf"))
			rc = initramfs_add_file(ir, "/etc/mke2fs.conf",
						"/etc/mke2fs.conf", 0644);
	}
	return rc;
}

int boot_archive_write(const char *out_path, const char *spec,
		       const char *guest, const struct boot_file *files,
		       size_t nr_files)
{
	struct initramfs ir = INITRAMFS_INIT;
	struct strvec tools = STRVEC_INIT;
	char *found = NULL;
	int rc = -1;

	if (!guest) {
		guest = found = initramfs_find_guest();
		/* The variable, when set, is the only place looked at. */
		const char *env = getenv("IOBISECT_GUEST");
		if (!guest && env && *env) {
			error("cannot find the guest program 'iobisect-guest': "
			      "IOBISECT_GUEST names '%s', which does not exist",
			      env);
			goto out;
		}
		if (!guest) {
			error("cannot find the guest program 'iobisect-guest' "
			      "(run make, or set IOBISECT_GUEST)");
			goto out;
		}
	}
	static const char *const dirs[] = {"/dev", "/proc", "/sys", "/tmp",
					   "/mnt", "/bin",  "/etc", "/run"};
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		initramfs_add_dir(&ir, dirs[i], 0755);
	/*
	 * Kernels without devtmpfs (or before it is mounted) still need a
	 * console for PID 1 and the result port.
	 */
	initramfs_add_node(&ir, "/dev/console", S_IFCHR, 0600, 5, 1);
	initramfs_add_node(&ir, "/dev/null", S_IFCHR, 0666, 1, 3);
	initramfs_add_node(&ir, "/dev/ttyS0", S_IFCHR, 0600, 4, 64);
	initramfs_add_node(&ir, "/dev/ttyS1", S_IFCHR, 0600, 4, 65);
	initramfs_add_symlink(&ir, "/sbin", "bin");
	if (initramfs_add_file(&ir, "/init", guest, 0755) ||
	    initramfs_add_data(&ir, "/spec", 0644, spec, strlen(spec)))
		goto out;
	for (size_t i = 0; i < nr_files; i++)
		if (initramfs_add_data(&ir, files[i].path, 0644, files[i].data,
				       files[i].len))
			goto out;
	initramfs_tools_for_spec(&tools, spec);
	for (size_t i = 0; i < tools.nr; i++)
		if (add_tool(&ir, tools.v[i]))
			goto out;
	if (fio_pack_wanted(spec) && fio_pack_append(&ir))
		goto out;
	rc = initramfs_write(&ir, out_path);
out:
	free(found);
	strvec_clear(&tools);
	initramfs_release(&ir);
	return rc;
}
