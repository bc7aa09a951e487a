/*
 * job_preset.c: a topology's presets (qemu/<name>.json in the data
 * folder): their names and descriptions, one loaded into a draft, and a
 * job's overrides on it. The draft itself is job_topology.c's
 * (job_topology_priv.h).
 */
#include "job_parse.h"
#include "job_datadir.h"
#include "job_reference.h"
#include "job_topology_priv.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/*
 * The one rule for a preset's name, loaded or listed: a word that is
 * safe in a path, a spec and a shell's completion (letters, digits, '_'
 * and '-'; no '.', so none names a folder or a hidden file).
 */
static int preset_name_ok(const char *name)
{
	return job_valid_name(name, 64) && !strchr(name, '.');
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void job_presets(struct strvec *out)
{
	const char *data = job_data_dir();
	char *dir = data ? xstrfmt("%s/qemu", data) : NULL;
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	size_t first = out->nr;

	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *name;
		if (n <= 5 || strcmp(e->d_name + n - 5, ".json"))
			continue;
		name = xstrndup(e->d_name, n - 5);
		if (preset_name_ok(name))
			strvec_push(out, name);
		free(name);
	}
	if (d)
		closedir(d);
	qsort(out->v + first, out->nr - first, sizeof(*out->v), cmp_str);
	free(dir);
}

char *job_preset_description(const char *name)
{
	struct strbuf text = STRBUF_INIT;
	const char *data = job_data_dir(), *s;
	char *path, *out = NULL;
	json_t *root = NULL;

	if (!data || !preset_name_ok(name))
		return NULL;
	path = xstrfmt("%s/qemu/%s.json", data, name);
	if (!read_file_max(path, &text, JOB_FILE_MAX))
		root = json_loadb(text.buf, text.len, 0, NULL);
	s = json_string_value(json_object_get(root, "description"));
	if (s)
		out = xstrdup(s);
	json_decref(root);
	strbuf_release(&text);
	free(path);
	return out;
}

int preset_load(struct keypath *c, const char *name, struct draft *d)
{
	struct strbuf text = STRBUF_INIT;
	const char *data = job_data_dir();
	char *path;
	json_t *root;
	json_error_t jerr;
	int ret = -1;

	if (!preset_name_ok(name))
		return kp_fail(c, "unknown preset '%s'", name);
	if (!data) {
		char *why = job_data_looked();
		kp_fail(c, "unknown preset '%s': %s", name, why);
		free(why);
		return -1;
	}
	path = xstrfmt("%s/qemu/%s.json", data, name);
	if (!file_exists(path)) {
		kp_fail(c, "unknown preset '%s' (no '%s')", name, path);
		free(path);
		return -1;
	}
	if (read_file_max(path, &text, JOB_FILE_MAX))
		goto out;
	root = json_loadb(text.buf, text.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		error("%s: not valid JSON: %s at line %d", path, jerr.text,
		      jerr.line);
		goto out;
	}
	/* Problems inside a preset name the preset's file, not the job. */
	struct keypath pc = {path, STRBUF_INIT};
	ret = draft_parse(&pc, root, name, d);
	if (!ret)
		ret = draft_check(&pc, d);
	strbuf_release(&pc.path);
	json_decref(root);
out:
	strbuf_release(&text);
	free(path);
	return ret;
}

/*
 * Overrides on a preset: "name"; "path" for every host disk; "disks" {..}
 * for every disk; "<disk name>" {..} or "<layer name>" {..} for one;
 * "layers" [..] replacing the layers; "extra_layers" [..] appended.
 */
int draft_override(struct keypath *c, json_t *v, struct draft *d)
{
	const char *key;
	json_t *val;
	json_object_foreach(v, key, val) {
		size_t old = kp_push(c, key);
		int ret = 0;
		if (!strcmp(key, "preset")) {
			/* handled by the caller */
		} else if (!strcmp(key, "description")) {
			const char *s;
			ret = kp_str(c, val, &s);
		} else if (!strcmp(key, "name")) {
			const char *s;
			ret = kp_str(c, val, &s);
			if (!ret && !job_valid_name(s, 64))
				ret = kp_fail(c, "'%s' is not a valid name", s);
			if (!ret) {
				free(d->name);
				d->name = xstrdup(s);
			}
		} else if (!strcmp(key, "path")) {
			int any = 0;
			for (size_t i = 0; !ret && i < d->nr_disks; i++)
				if (d->disks[i].backing == BACKING_HOST) {
					any = 1;
					ret = disk_set(c, &d->disks[i], "path",
						       val);
				}
			if (!ret && !any)
				ret = kp_fail(c,
					      "the topology has no host disk");
		} else if (!strcmp(key, "disks") && !json_is_object(val)) {
			ret = kp_fail(c,
				      "expected an object of disk keys applied "
				      "to every disk");
		} else if (!strcmp(key, "disks")) {
			const char *k2;
			json_t *v2;
			for (size_t i = 0; !ret && i < d->nr_disks; i++)
				json_object_foreach(val, k2, v2)
					if (!ret)
						ret = disk_set(c, &d->disks[i],
							       k2, v2);
		} else if (!strcmp(key, "layers") ||
			   !strcmp(key, "extra_layers")) {
			/* "layers" replaces the preset's layers. */
			if (!strcmp(key, "layers")) {
				for (size_t i = 0; i < d->nr_layers; i++)
					draft_layer_release(&d->layers[i]);
				d->nr_layers = 0;
			}
			ret = draft_add_layers(c, val, d);
		} else {
			struct disk_spec *disk = NULL;
			struct draft_layer *layer = NULL;
			for (size_t i = 0; i < d->nr_disks; i++)
				if (!strcmp(d->disks[i].name, key))
					disk = &d->disks[i];
			for (size_t i = 0; i < d->nr_layers; i++)
				if (!strcmp(d->layers[i].name, key))
					layer = &d->layers[i];
			if (!disk && !layer) {
				kp_pop(c, old);
				kp_fail(c,
					"unknown key '%s' (not a disk or layer "
					"of "
					"preset '%s')",
					key, d->name);
				return -1;
			}
			if (!json_is_object(val)) {
				ret = kp_fail(c, "expected an object");
			} else {
				const char *k2;
				json_t *v2;
				json_object_foreach(val, k2, v2) {
					if (ret)
						break;
					if (disk)
						ret = disk_set(c, disk, k2, v2);
					else if (!strcmp(k2, "kind"))
						ret = kp_fail(c,
							      "cannot change a "
							      "layer's kind");
					else
						ret = layer_set(c, layer, k2,
								v2);
				}
			}
		}
		kp_pop(c, old);
		if (ret)
			return -1;
	}
	return 0;
}
