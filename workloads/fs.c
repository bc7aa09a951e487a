/*
 * fs.c: a file system made by a packed mkfs over an earlier layer and
 * mounted, so engines can run on files.
 */
#include "kinds.h"
#include "report.h"
#include "sys.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

static int fs_create(struct layer *l, struct layer *on)
{
	const char *type = spec_get(l->line, "type");
	const char *mnt = spec_get(l->line, "mount");
	const char *extra = spec_get(l->line, "mkfs_args");
	char *argv[40];
	int argc = 0;
	static char args[256];
	const char *tool;

	if (!type || !mnt)
		return report_error("fs",
				    "fs '%s' needs type= and mount=", l->name);
	if (!strcmp(on->kind, "fs"))
		return report_error("fs", "fs '%s' cannot sit on fs '%s'",
				    l->name, on->name);
	if (on->ro)
		return report_error("fs",
				    "fs '%s': '%s' is read-only and mkfs "
				    "writes",
				    l->name, on->name);
	if (!strcmp(type, "xfs")) {
		if (!(tool = layer_tool("mkfs.xfs")))
			return report_error("fs",
					    "fs '%s': mkfs.xfs is not in "
					    "the initramfs",
					    l->name);
		argv[argc++] = (char *)tool;
		argv[argc++] = "-f";
		argv[argc++] = "-q";
	} else if (!strcmp(type, "ext4") || !strcmp(type, "ext3")) {
		if (!(tool = layer_tool("mke2fs")) &&
		    !(tool = layer_tool("mkfs.ext4")))
			return report_error("fs",
					    "fs '%s': mke2fs is not in "
					    "the initramfs",
					    l->name);
		argv[argc++] = (char *)tool;
		argv[argc++] = "-F";
		argv[argc++] = "-q";
		argv[argc++] = "-t";
		argv[argc++] = (char *)type;
		/*
		 * Initialise inode tables now: the lazy-init thread would
		 * otherwise write in the background during the samples.
		 */
		argv[argc++] = "-E";
		argv[argc++] = "lazy_itable_init=0,lazy_journal_init=0";
	} else {
		return report_error("fs", "fs '%s': unknown type '%s'", l->name,
				    type);
	}
	if (extra) {
		snprintf(args, sizeof(args), "%s", extra);
		for (char *tok = strtok(args, ","); tok && argc < 36;
		     tok = strtok(NULL, ","))
			argv[argc++] = tok;
	}
	argv[argc++] = on->path;
	argv[argc] = NULL;
	say("mkfs: %s on %s", tool, on->path);
	int rc = sys_run(argv, 600);
	if (rc != 0)
		return report_error("fs", "'%s' on '%s' failed: %s", tool,
				    on->path,
				    rc < 0 ? strerror(errno) : "non-zero exit");
	if (sys_mkdir_p(mnt) < 0)
		return report_error("fs", "cannot create '%s': %s", mnt,
				    strerror(errno));
	if (mount(on->path, mnt, type, 0, "") < 0)
		return report_error("fs", "cannot mount '%s' (%s) on '%s': %s",
				    on->path, type, mnt, strerror(errno));
	snprintf(l->dev, sizeof(l->dev), "%s", on->dev);
	snprintf(l->path, sizeof(l->path), "%s", on->path);
	snprintf(l->mount, sizeof(l->mount), "%s", mnt);
	snprintf(l->how, sizeof(l->how), "%s", strrchr(tool, '/') + 1);
	l->root = (int)(l - layers);
	layer_mark_busy(on);
	return 0;
}

static void fs_describe(struct json *j, const struct layer *l)
{
	json_str(j, "type", spec_get(l->line, "type"));
	json_str(j, "mount", l->mount);
}

const struct layer_ops fs_ops = {
	.kind = "fs",
	.create = fs_create,
	.describe = fs_describe,
};
