/*
 * cmd_version.c: `iobisect version` (and `iobisect --version`): which
 * program this is and what it would run: the release and the build's git
 * describe, the guest program and its build id, the data folder, the
 * QEMU on PATH with its version, and whether it loads the profile's
 * plugin. What a bug report or a lab's inventory
 * of nodes needs, in one aligned block; with --json, the same as one
 * document (docs/commands.md).
 */
#include "build_id.h"
#include "cmd.h"
#include "cmd_json.h"
#include "initramfs.h"
#include "job_datadir.h"
#include "options.h"
#include "qemu.h"
#include "tbcount.h"
#include "util.h"
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* `name` on PATH, as a shell would run it; NULL when none. */
static char *path_lookup(const char *name)
{
	const char *path = getenv("PATH");
	struct strvec dirs = STRVEC_INIT;
	char *found = NULL;

	strvec_split(&dirs, path && *path ? path : "/usr/bin:/bin", ':');
	for (size_t i = 0; !found && i < dirs.nr; i++) {
		char *cand = xstrfmt("%s/%s", dirs.v[i], name);
		if (!access(cand, X_OK))
			found = cand;
		else
			free(cand);
	}
	strvec_clear(&dirs);
	return found;
}

/* A string, or null for none. */
static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

/*
 * One thing found, for --json: {"path": ..., ...} when found, else
 * {"path": null, "looked": where it was looked for}.
 */
static json_t *found(const char *path, const char *looked)
{
	json_t *o = json_object();

	json_object_set_new(o, "path", str_or_null(path));
	if (!path)
		json_object_set_new(o, "looked", str_or_null(looked));
	return o;
}

int cmd_version(int argc, char **argv)
{
	int as_json = 0;
	const struct opt opts[] = {
		OPT_FLAG("--json", &as_json,
			 "one JSON document on stdout (commands.md, JSON output)"),
		OPT_END(),
	};
	struct strbuf id = STRBUF_INIT;
	const char *data;
	char *guest, *qemu, *qv = NULL, *plugin = NULL, *why = NULL;
	char *guest_looked = NULL, *data_looked = NULL;
	int has_id = 0, loads = 0, code;

	if (opt_parse_command("version", NULL, opts, argc, argv, &code))
		return code;
	if (as_json && cmd_json_hold())
		return EXIT_ABORT;
	/* The same facts for either form, found before either is written. */
	data = job_data_dir();
	if (!data)
		data_looked = job_data_looked();
	guest = initramfs_find_guest();
	if (!guest)
		guest_looked = initramfs_guest_looked();
	else
		has_id = !build_id_of_file(guest, &id);
	/* The machine.qemu a job names may differ: this is the default's. */
	qemu = path_lookup("qemu-system-x86_64");
	/* A QEMU that cannot say its version is shown without one. */
	if (qemu && qemu_version(qemu, &qv) < 0)
		qv = NULL;
	if (qemu)
		loads = tbcount_available(qemu, &plugin, &why);

	if (as_json) {
		json_t *doc = json_object(), *g, *q;
		json_object_set_new(doc, "iobisect",
				    json_string(version_string()));
		json_object_set_new(doc, "release",
				    json_string(version_release()));
		json_object_set_new(doc, "git",
				    json_string(version_describe()));
		g = found(guest, guest_looked);
		if (guest)
			json_object_set_new(g, "build_id",
					    has_id ? json_string(id.buf)
						   : json_null());
		json_object_set_new(doc, "guest", g);
		json_object_set_new(doc, "data", found(data, data_looked));
		q = found(qemu, "PATH");
		if (qemu)
			json_object_set_new(q, "version", str_or_null(qv));
		json_object_set_new(doc, "qemu", q);
		if (qemu) {
			json_t *p = json_object();
			json_object_set_new(p, "path",
					    str_or_null(loads ? plugin : NULL));
			json_object_set_new(p, "loads", json_boolean(loads));
			if (!loads)
				json_object_set_new(p, "why", str_or_null(why));
			json_object_set_new(doc, "plugin", p);
		}
		cmd_json_put(doc);
		goto out;
	}
	printf("iobisect %s (git %s)\n", version_release(), version_describe());
	if (!guest)
		printf("guest    none: %s\n", guest_looked);
	else if (!has_id)
		printf("guest    %s (no build id)\n", guest);
	else
		printf("guest    %s (build id %s)\n", guest, id.buf);
	if (data)
		printf("data     %s\n", data);
	else
		printf("data     none: %s\n", data_looked);
	printf("qemu     %s%s%s%s\n", qemu ? qemu : "not found on PATH",
	       qv ? " (" : "", qv ? qv : "", qv ? ")" : "");
	if (qemu && loads)
		printf("plugin   %s (QEMU loads it: profiles)\n", plugin);
	else if (qemu)
		printf("plugin   none: %s (no profiles)\n", why);
out:
	free(plugin);
	free(why);
	free(qv);
	free(qemu);
	free(guest);
	free(guest_looked);
	free(data_looked);
	strbuf_release(&id);
	return 0;
}
