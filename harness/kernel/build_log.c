/* build_log.c: a cached image's build, from its log (build_log.h). */
#include "build_log.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

char *build_log_value(const char *imgdir, const char *name)
{
	struct strbuf log = STRBUF_INIT;
	char *path = xstrfmt("%s/build.log", imgdir), *value = NULL;
	char *key = xstrfmt("\n# %s ", name);

	if (!read_file_max(path, &log, 1 << 20)) {
		const char *p = strstr(log.buf, key);
		if (p) {
			p += strlen(key);
			value = xstrndup(p, strcspn(p, "\n"));
		}
	}
	strbuf_release(&log);
	free(key);
	free(path);
	return value;
}

int build_log_folder(const char *imgdir, char **objdir)
{
	char *dir = build_log_value(imgdir, "objdir");
	char *image = xstrfmt("%s/bzImage", imgdir);
	char *built = dir ? xstrfmt("%s/arch/x86/boot/bzImage", dir) : NULL;
	int holds = built && files_same(built, image) == 1;

	free(image);
	free(built);
	if (holds)
		*objdir = dir;
	else
		free(dir);
	return holds;
}
