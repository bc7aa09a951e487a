/*
 * kmap.c: System.map beside the cached images (kmap.h).
 */
#include "kmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

char *kmap_path(const char *image)
{
	const char *slash = strrchr(image, '/');
	if (!slash)
		return xstrdup("System.map");
	return xstrfmt("%.*s/System.map", (int)(slash - image), image);
}

int kmap_keep(const char *objdir, const char *imgdir)
{
	char *from = xstrfmt("%s/System.map", objdir);
	char *to = xstrfmt("%s/System.map", imgdir);
	/* A make that wrote none (a stand-in) leaves the image without. */
	int rc = file_exists(from) ? copy_file(from, to, 0644) : 0;
	free(from);
	free(to);
	return rc;
}

/* The "# objdir PATH" line kbuild writes at the top of build.log. */
static char *objdir_of(const char *imgdir)
{
	struct strbuf log = STRBUF_INIT;
	char *path = xstrfmt("%s/build.log", imgdir), *dir = NULL;
	if (!read_file_max(path, &log, 1 << 20)) {
		const char *p = strstr(log.buf, "\n# objdir ");
		if (p) {
			p += 10;
			dir = xstrndup(p, strcspn(p, "\n"));
		}
	}
	strbuf_release(&log);
	free(path);
	return dir;
}

static int same_bytes(const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int same = !read_file(a, &x) && !read_file(b, &y) && x.len == y.len &&
		   !memcmp(x.buf, y.buf, x.len);
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

int kmap_adopt(const char *imgdir)
{
	char *map = xstrfmt("%s/System.map", imgdir);
	char *image = xstrfmt("%s/bzImage", imgdir);
	char *objdir = objdir_of(imgdir), *built = NULL, *objmap = NULL;
	int rc = 0;

	if (file_exists(map)) {
		rc = 1;
		goto out;
	}
	if (!objdir)
		goto out;
	built = xstrfmt("%s/arch/x86/boot/bzImage", objdir);
	objmap = xstrfmt("%s/System.map", objdir);
	/* Quiet when the folder is gone: the caller builds again. */
	if (!file_exists(built) || !file_exists(objmap) ||
	    !same_bytes(built, image))
		goto out;
	rc = kmap_keep(objdir, imgdir) ? -1 : 1;
out:
	free(map);
	free(image);
	free(objdir);
	free(built);
	free(objmap);
	return rc;
}
