/*
 * layers.c: the registry of layer kinds, the builder that makes the spec's
 * layers in order through it, and the `topology` frame read back from the
 * kernel. What each kind does lives in its own file (kinds.h).
 */
#include "layers.h"
#include "kinds.h"
#include "report.h"
#include "sys.h"

#include <stdio.h>
#include <string.h>

/* Disks too, though found not built: the topology describes them alike. */
static const struct layer_ops *const registry[] = {
	&disk_ops, &part_ops, &md_ops, &dm_ops, &loop_ops, &fs_ops,
};

static const struct layer_ops *kind_ops(const char *kind)
{
	for (size_t i = 0; i < sizeof(registry) / sizeof(*registry); i++)
		if (!strcmp(registry[i]->kind, kind))
			return registry[i];
	return NULL;
}

/* The layer on= names: 0 with *on set (NULL for none or a file), or -1. */
static int find_on(const struct layer *l, const struct layer_ops *ops,
		   struct layer **on)
{
	const char *on_name = spec_get(l->line, "on");

	*on = NULL;
	if (on_name && strncmp(on_name, "file:", 5)) {
		*on = layer_find(on_name);
		if (!*on)
			return report_error("spec",
					    "line %d: '%s' is "
					    "not an earlier layer",
					    l->line->lineno, on_name);
	} else if (!on_name && ops->on != LAYER_ON_NONE) {
		return report_error("spec",
				    "line %d: '%s' has no on=", l->line->lineno,
				    l->name);
	} else if (on_name && ops->on != LAYER_ON_FILE) {
		return report_error("spec",
				    "line %d: only loop layers "
				    "sit on files",
				    l->line->lineno);
	}
	return 0;
}

int layers_build(const struct spec *s)
{
	for (int i = 0; i < s->nr_layers; i++) {
		const struct spec_line *line = &s->layers[i];
		const struct layer_ops *ops = kind_ops(line->word);
		struct layer *l = &layers[nr_layers];
		struct layer *on;

		if (layer_find(spec_name(line)))
			return report_error("spec",
					    "line %d: layer name '%s' "
					    "used twice",
					    line->lineno, spec_name(line));
		/* Disks are in the registry too, but only disks_find makes
		 * them. */
		if (!ops || !ops->create)
			return report_error("spec",
					    "line %d: unknown layer kind '%s'",
					    line->lineno, line->word);
		memset(l, 0, sizeof(*l));
		snprintf(l->name, sizeof(l->name), "%s", spec_name(line));
		snprintf(l->kind, sizeof(l->kind), "%s", line->word);
		l->line = line;
		l->root = nr_layers;
		if (find_on(l, ops, &on))
			return -1;
		say("building %s %s", l->kind, l->name);
		if (ops->create(l, on))
			return -1;
		nr_layers++;
	}
	return 0;
}

int layers_report(void)
{
	static struct json j;
	json_begin(&j, "topology");
	json_arr_begin(&j, "layers");
	for (int i = 0; i < nr_layers; i++) {
		const struct layer *l = &layers[i];
		const struct layer_ops *ops = kind_ops(l->kind);
		uint64_t size = 0;
		unsigned long ra = 0;
		json_obj_begin(&j, NULL);
		json_str(&j, "name", l->name);
		json_str(&j, "kind", l->kind);
		json_str(&j, "dev", l->dev);
		if (sys_blk_size(l->path, &size) == 0)
			json_u64(&j, "size_bytes", size);
		if (sys_ra_get(l->path, &ra) == 0)
			json_u64(&j, "ra_kb", ra);
		/* What the kernel says, next to what the guest decided. */
		int kro = 0;
		if (sys_blk_ro(l->path, &kro) == 0)
			json_bool(&j, "ro", kro || l->ro);
		else
			json_bool(&j, "ro", l->ro);
		unsigned long msk;
		if ((!ops || ops->whole) &&
		    sys_max_sectors_get(l->dev, &msk) == 0)
			json_u64(&j, "max_sectors_kb", msk);
		if (l->how[0])
			json_str(&j, "setup", l->how);
		if (ops && ops->describe)
			ops->describe(&j, l);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	return report_frame(&j);
}
