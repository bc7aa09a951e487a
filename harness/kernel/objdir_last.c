/*
 * objdir_last.c: the commit a build folder last built (objdir_last.h).
 */
#include "objdir_last.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * In the folder, so it goes with the folder: "<commit>\n<imgdir>\n", and
 * "<from>\n" after them while it is a mix.
 */
#define LAST_MARK ".iobisect-last-build"

int objdir_last_write(const char *objdir, const char *commit,
		      const char *imgdir)
{
	char *mark = xstrfmt("%s/" LAST_MARK, objdir);
	char *text = xstrfmt("%s\n%s\n", commit, imgdir);
	int rc = write_file_atomic(mark, text, strlen(text));

	free(text);
	free(mark);
	return rc;
}

int objdir_last_begin(const char *objdir, const char *commit)
{
	struct objdir_last last;
	int rc = objdir_last_read(objdir, &last);

	if (rc == 1 && !last.from[0] && strcmp(last.commit, commit)) {
		char *mark = xstrfmt("%s/" LAST_MARK, objdir);
		char *text = xstrfmt("%s\n%s\n%s\n", commit, last.imgdir,
				     last.commit);
		rc = write_file_atomic(mark, text, strlen(text));
		free(text);
		free(mark);
	} else if (rc == 1 && !last.from[0]) {
		rc = 0; /* the same commit again: still whole */
	} else {
		rc = objdir_last_forget(objdir);
	}
	if (last.objdir) {
		free(last.objdir);
		free(last.imgdir);
	}
	return rc;
}

int objdir_last_forget(const char *objdir)
{
	char *mark = xstrfmt("%s/" LAST_MARK, objdir);
	int rc = 0;

	if (unlink(mark) && errno != ENOENT)
		rc = error("cannot remove '%s': %s", mark, strerror(errno));
	free(mark);
	return rc;
}

int objdir_last_read(const char *objdir, struct objdir_last *out)
{
	char *mark = xstrfmt("%s/" LAST_MARK, objdir);
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (file_exists(mark)) {
		const char *nl;
		size_t n;

		if (read_file_max(mark, &sb, 4096)) {
			rc = -1;
			goto out;
		}
		n = strspn(sb.buf, "0123456789abcdef");
		nl = sb.buf + n;
		if (n != 40 || *nl != '\n' || nl[1] != '/') {
			rc = error("'%s' is not a commit and an image folder",
				   mark);
			goto out;
		}
		memcpy(out->commit, sb.buf, 40);
		out->imgdir = xstrndup(nl + 1, strcspn(nl + 1, "\n"));
		nl = strchr(nl + 1, '\n');
		if (nl && nl[1]) {
			if (strspn(nl + 1, "0123456789abcdef") != 40) {
				free(out->imgdir);
				out->imgdir = NULL;
				rc = error("'%s' names no commit it was built "
					   "from",
					   mark);
				goto out;
			}
			memcpy(out->from, nl + 1, 40);
		}
		out->objdir = xstrdup(objdir);
		rc = 1;
	}
out:
	strbuf_release(&sb);
	free(mark);
	return rc;
}

/* Slots are numbers: their folders, in order. */
static int by_slot(const void *a, const void *b)
{
	unsigned long x = strtoul(*(char *const *)a, NULL, 10);
	unsigned long y = strtoul(*(char *const *)b, NULL, 10);
	return (x > y) - (x < y);
}

size_t objdir_last_siblings(const char *objdir, struct objdir_last **out)
{
	/* trees/<repo>/<slot>/obj/<config>: the part after <slot>. */
	const char *name = strrchr(objdir, '/');
	const char *obj = NULL, *slot = NULL;
	struct strvec slots = STRVEC_INIT;
	size_t nr = 0, alloc = 0;
	DIR *d;
	struct dirent *e;
	char *top;

	*out = NULL;
	for (const char *p = name; p && p > objdir; p--)
		if (*p == '/' && p != name) {
			if (!obj)
				obj = p;
			else if (!slot) {
				slot = p;
				break;
			}
		}
	if (!name || !obj || !slot || strncmp(obj, "/obj/", 5))
		return 0;
	top = xstrndup(objdir, (size_t)(slot - objdir));
	if ((d = opendir(top))) {
		while ((e = readdir(d)))
			if (isdigit((unsigned char)e->d_name[0]) &&
			    strspn(e->d_name, "0123456789") ==
				    strlen(e->d_name))
				strvec_push(&slots, e->d_name);
		closedir(d);
	}
	if (slots.nr) /* qsort's array may not be NULL, even empty */
		qsort(slots.v, slots.nr, sizeof(*slots.v), by_slot);
	for (size_t i = 0; i < slots.nr; i++) {
		char *dir = xstrfmt("%s/%s%s", top, slots.v[i], obj);
		struct objdir_last last;
		if (objdir_last_read(dir, &last) == 1) {
			ALLOC_GROW(*out, nr + 1, alloc);
			(*out)[nr++] = last;
		}
		free(dir);
	}
	strvec_clear(&slots);
	free(top);
	return nr;
}

void objdir_last_release(struct objdir_last *l, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(l[i].objdir);
		free(l[i].imgdir);
	}
	free(l);
}
