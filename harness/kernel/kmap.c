/*
 * kmap.c: System.map beside the cached images (kmap.h).
 */
#include "kmap.h"
#include "build_log.h"
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

int kmap_adopt(const char *imgdir)
{
	char *map = xstrfmt("%s/System.map", imgdir);
	char *objdir = NULL, *objmap = NULL;
	int rc = 0;

	if (file_exists(map)) {
		rc = 1;
		goto out;
	}
	/* Quiet when the folder is gone: the caller builds again. */
	if (!build_log_folder(imgdir, &objdir))
		goto out;
	objmap = xstrfmt("%s/System.map", objdir);
	if (!file_exists(objmap))
		goto out;
	rc = kmap_keep(objdir, imgdir) ? -1 : 1;
out:
	free(map);
	free(objdir);
	free(objmap);
	return rc;
}
