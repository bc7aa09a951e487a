/* inputs.c: the source files an image was made from (see inputs.h). */
#include "inputs.h"
#include "build_log.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void inputs_release(struct kernel_inputs *in)
{
	str_index_release(&in->index);
	strvec_clear(&in->paths);
	free(in->objects);
	in->objects = NULL;
	in->alloc_objects = 0;
	in->nr_objects = 0;
	free(in->bits);
	in->bits = NULL;
	in->words = in->rows = 0;
}

/* Room for object k's bit in a row for every path there is room for. */
static void bits_fit(struct kernel_inputs *in, size_t k)
{
	size_t words = in->words ? in->words : 4;
	uint64_t *bits;

	while (words * 64 <= k)
		words *= 2;
	if (in->bits && words == in->words && in->rows >= in->paths.nr)
		return;
	bits = xcalloc(in->alloc_objects * words, sizeof(*bits));
	for (size_t i = 0; in->bits && i < in->rows; i++)
		memcpy(bits + i * words, in->bits + i * in->words,
		       in->words * sizeof(*bits));
	free(in->bits);
	in->bits = bits;
	in->words = words;
	in->rows = in->alloc_objects;
}

static void set_bit(struct kernel_inputs *in, size_t path, size_t k)
{
	bits_fit(in, k);
	in->bits[path * in->words + k / 64] |= UINT64_C(1) << (k % 64);
}

/* The index of `path`, added (read by no object yet) unless it is there. */
static size_t add(struct kernel_inputs *in, const char *path)
{
	long at = str_index_get(&in->index, path, STR_INDEX_WHOLE);

	if (at >= 0)
		return (size_t)at;
	strvec_push(&in->paths, path);
	str_index_put(&in->index, in->paths.v[in->paths.nr - 1],
		      STR_INDEX_WHOLE, in->paths.nr - 1);
	ALLOC_GROW(in->objects, in->paths.nr, in->alloc_objects);
	in->objects[in->paths.nr - 1] = 0;
	return in->paths.nr - 1;
}

void inputs_add(struct kernel_inputs *in, const char *path)
{
	add(in, path);
}

/* Characters that end a path inside a .cmd token ("$(wildcard x)", "-I"). */
static size_t path_len(const char *s)
{
	return strcspn(s, " \t\n\\)(,;:'\"=");
}

/* One object's files, as indexes into the set's paths (repeats too). */
struct object_files {
	size_t *idx;
	size_t nr, alloc;
};

/*
 * Every file of the tree `text` names as `prefix`/path; each also into
 * *obj when it is given.
 */
static void scan_prefix(struct kernel_inputs *in, struct object_files *obj,
			const char *text, const char *prefix,
			const char *srcdir)
{
	size_t pl = strlen(prefix);
	struct strbuf path = STRBUF_INIT;
	const char *p = text;

	while ((p = strstr(p, prefix))) {
		const char *rel = p + pl;
		size_t n;

		p = rel;
		if (*rel != '/')
			continue;
		rel++;
		n = path_len(rel);
		if (!n)
			continue;
		strbuf_reset(&path);
		strbuf_add(&path, rel, n);
		p = rel + n;
		long at = str_index_get(&in->index, path.buf, STR_INDEX_WHOLE);
		if (at < 0) {
			/* A folder (-I) or a file gone is not one. */
			struct stat st;
			char *abs = xstrfmt("%s/%s", srcdir, path.buf);
			int file = !lstat(abs, &st) && (S_ISREG(st.st_mode) ||
							S_ISLNK(st.st_mode));
			free(abs);
			if (!file)
				continue;
			at = (long)add(in, path.buf);
		}
		if (obj) {
			ALLOC_GROW(obj->idx, obj->nr + 1, obj->alloc);
			obj->idx[obj->nr++] = (size_t)at;
		}
	}
	strbuf_release(&path);
}

static void scan_cmd(struct kernel_inputs *in, struct object_files *obj,
		     const char *text, const char *srcdir,
		     const char *from_objdir)
{
	/*
	 * The tree's files are named by absolute path (the build folder is
	 * not in the tree) wherever they stand: a dependency line, a
	 * source_ line, "-include", a script's argument. ccache's base_dir
	 * makes the compiler's own dependency lines relative to the build
	 * folder ("../../src/...").
	 */
	scan_prefix(in, obj, text, srcdir, srcdir);
	if (from_objdir && *from_objdir)
		scan_prefix(in, obj, text, from_objdir, srcdir);
}

void inputs_scan_cmd(struct kernel_inputs *in, const char *text,
		     const char *srcdir, const char *from_objdir)
{
	scan_cmd(in, NULL, text, srcdir, from_objdir);
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

void inputs_scan_object(struct kernel_inputs *in, const char *text,
			const char *srcdir, const char *from_objdir)
{
	struct object_files obj = { NULL, 0, 0 };

	scan_cmd(in, &obj, text, srcdir, from_objdir);
	/* A file named twice in one .cmd (its source line, its deps) once. */
	if (obj.nr) /* qsort's array may not be NULL, even empty */
		qsort(obj.idx, obj.nr, sizeof(*obj.idx), by_index);
	for (size_t i = 0; i < obj.nr; i++)
		if (!i || obj.idx[i] != obj.idx[i - 1]) {
			in->objects[obj.idx[i]]++;
			set_bit(in, obj.idx[i], (size_t)in->nr_objects);
		}
	/* objtool's objects name no file: not the kernel's. */
	if (obj.nr)
		in->nr_objects++;
	free(obj.idx);
}

/*
 * `to` as seen from `from`, both absolute ("/t/0/obj/k", "/t/0/src":
 * "../../src"); caller frees.
 */
static char *relative_path(const char *from, const char *to)
{
	size_t common = 0, i = 0;
	struct strbuf sb = STRBUF_INIT;

	/* The longest common prefix that ends at a folder. */
	for (; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i;
	if (!from[i] && to[i] == '/')
		common = i;
	else if (!to[i] && from[i] == '/')
		common = i;
	for (const char *p = from + common; *p; p++)
		if (*p == '/')
			strbuf_addstr(&sb, sb.len ? "/.." : "..");
	if (to[common])
		strbuf_addf(&sb, "%s%s", sb.len ? "" : ".", to + common);
	return strbuf_detach(&sb);
}

/*
 * Kconfig writes the list of Kconfig files it read, relative to the
 * tree's top, into include/config/auto.conf.cmd ("deps_config := \").
 */
static void scan_kconfig_list(struct kernel_inputs *in, const char *text,
			      const char *srcdir)
{
	struct strbuf path = STRBUF_INIT;

	for (const char *p = text; *p;) {
		size_t n;

		p += strspn(p, " \t\n\\");
		n = strcspn(p, " \t\n\\");
		if (!n)
			break;
		strbuf_reset(&path);
		strbuf_add(&path, p, n);
		p += n;
		if (strchr(path.buf, '$') || strchr(path.buf, ':') ||
		    path.buf[0] == '/')
			continue;
		struct stat st;
		char *abs = xstrfmt("%s/%s", srcdir, path.buf);
		if (!lstat(abs, &st) && S_ISREG(st.st_mode))
			inputs_add(in, path.buf);
		free(abs);
	}
	strbuf_release(&path);
}

static struct {
	struct kernel_inputs *in;
	const char *srcdir;
	char *from_objdir; /* srcdir seen from objdir */
	size_t objdir_len;
	long files;
	int failed;
} scan;

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	const char *base = path + ftw->base;
	size_t n = strlen(base);
	struct strbuf text = STRBUF_INIT;
	int kconfig = !strcmp(base, "auto.conf.cmd");

	(void)st;
	if (type != FTW_F ||
	    (!kconfig && (base[0] != '.' || n < 5 ||
			  strcmp(base + n - 4, ".cmd"))))
		return 0;
	if (read_file(path, &text)) {
		scan.failed = 1;
		strbuf_release(&text);
		return 1;
	}
	if (kconfig) {
		scan_kconfig_list(scan.in, text.buf, scan.srcdir);
	} else {
		/* make went into this folder: its Makefile counts. */
		size_t dir = (size_t)ftw->base;
		if (dir > scan.objdir_len + 1) {
			char *rel = xstrndup(path + scan.objdir_len + 1,
					     dir - scan.objdir_len - 1);
			inputs_add(scan.in, rel);
			free(rel);
		}
		if (n > 6 && !strcmp(base + n - 6, ".o.cmd"))
			inputs_scan_object(scan.in, text.buf, scan.srcdir,
					   scan.from_objdir);
		else
			inputs_scan_cmd(scan.in, text.buf, scan.srcdir,
					scan.from_objdir);
	}
	scan.files++;
	strbuf_release(&text);
	return 0;
}

/*
 * objtool is made by tools/'s own build, whose .cmd files name no
 * dependencies; it rewrites every object, so all it is made of counts.
 */
static const char *const objtool_trees[] = {
	"tools/objtool/**", "tools/include/**", "tools/lib/**",
	"tools/arch/**",    "tools/build/**",	"tools/scripts/**",
};

long inputs_collect(struct kernel_inputs *in, const char *objdir,
		    const char *srcdir)
{
	char *objtool = xstrfmt("%s/tools/objtool", objdir);

	scan.in = in;
	scan.srcdir = srcdir;
	scan.objdir_len = strlen(objdir);
	scan.from_objdir = relative_path(objdir, srcdir);
	scan.files = 0;
	scan.failed = 0;
	int failed = nftw(objdir, visit, 32, FTW_PHYS) || scan.failed;
	free(scan.from_objdir);
	scan.from_objdir = NULL;
	if (failed) {
		free(objtool);
		return scan.failed ? -1
				   : error("cannot read the build folder '%s': "
					   "%s",
					   objdir, strerror(errno));
	}
	if (file_exists(objtool))
		for (size_t i = 0; i < ARRAY_SIZE(objtool_trees); i++)
			inputs_add(in, objtool_trees[i]);
	free(objtool);
	return scan.files;
}

int inputs_keep(const char *objdir, const char *srcdir, const char *imgdir)
{
	struct kernel_inputs in = KERNEL_INPUTS_INIT;
	int rc = inputs_collect(&in, objdir, srcdir) < 0 ||
			 inputs_write(&in, imgdir)
		 ? -1
		 : 0;
	inputs_release(&in);
	return rc;
}

int inputs_adopt(const char *imgdir)
{
	char *file = xstrfmt("%s/" INPUTS_FILE, imgdir);
	char *objects = xstrfmt("%s/" INPUTS_OBJECTS_FILE, imgdir);
	char *objdir = NULL, *srcdir = NULL;
	int rc = file_exists(file);

	/* Kept before the objects were: theirs too, while it can be had. */
	if (!rc || !file_exists(objects)) {
		if (build_log_folder(imgdir, &objdir) &&
		    (srcdir = build_log_value(imgdir, "srcdir")))
			rc = inputs_keep(objdir, srcdir, imgdir) ? -1 : 1;
	}
	free(file);
	free(objects);
	free(objdir);
	free(srcdir);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Path `at`'s objects in hex, object k in bit k % 4 of digit k / 4. */
static void add_bits(struct strbuf *sb, const struct kernel_inputs *in,
		     size_t at)
{
	size_t digits = 0, n = (size_t)in->nr_objects;

	if (!in->bits)
		return;
	for (size_t k = 0; k < n; k += 4) {
		unsigned d = 0;
		for (size_t j = 0; j < 4 && k + j < n; j++)
			d |= (unsigned)(in->bits[at * in->words + (k + j) / 64] >>
					((k + j) % 64) & 1) << j;
		if (d)
			digits = k / 4 + 1;
	}
	for (size_t i = 0; i < digits; i++) {
		unsigned d = 0;
		for (size_t j = 0; j < 4 && 4 * i + j < n; j++)
			d |= (unsigned)(in->bits[at * in->words +
						 (4 * i + j) / 64] >>
					((4 * i + j) % 64) & 1) << j;
		strbuf_addch(sb, "0123456789abcdef"[d]);
	}
}

int inputs_write(const struct kernel_inputs *in, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char **sorted = xcalloc(in->paths.nr ? in->paths.nr : 1,
				sizeof(*sorted));
	char *file = xstrfmt("%s/" INPUTS_FILE, dir);
	int rc;

	if (in->paths.nr)
		memcpy(sorted, in->paths.v, in->paths.nr * sizeof(*sorted));
	qsort(sorted, in->paths.nr, sizeof(*sorted), by_name);
	for (size_t i = 0; i < in->paths.nr; i++) {
		strbuf_addstr(&sb, sorted[i]);
		strbuf_addch(&sb, '\n');
	}
	rc = write_file_atomic(file, sb.buf ? sb.buf : "", sb.len);
	if (!rc && in->nr_objects > 0) {
		free(file);
		file = xstrfmt("%s/" INPUTS_OBJECTS_FILE, dir);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%ld\n", in->nr_objects);
		for (size_t i = 0; i < in->paths.nr; i++) {
			long at = str_index_get(&in->index, sorted[i],
						STR_INDEX_WHOLE);
			if (in->objects[at] > 0) {
				strbuf_addf(&sb, "%ld\t%s\t", in->objects[at],
					    sorted[i]);
				add_bits(&sb, in, (size_t)at);
				strbuf_addch(&sb, '\n');
			}
		}
		rc = write_file_atomic(file, sb.buf, sb.len);
	}
	free(file);
	free(sorted);
	strbuf_release(&sb);
	return rc;
}

/*
 * Path `at`'s objects from their hex (see add_bits): 0, or -1 when it is
 * not that (none: an objects file kept before they were).
 */
static int read_bits(struct kernel_inputs *in, size_t at, const char *hex,
		     long total)
{
	size_t n = hex ? strlen(hex) : 0;

	if (!n || n * 4 > (size_t)total + 3 ||
	    strspn(hex, "0123456789abcdef") != n)
		return -1;
	bits_fit(in, (size_t)total - 1);
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(hex[i] <= '9' ? hex[i] - '0'
						      : hex[i] - 'a' + 10);
		for (size_t j = 0; j < 4; j++)
			if (d >> j & 1)
				set_bit(in, at, 4 * i + j);
	}
	return 0;
}

/*
 * `dir`/objects into *in (see inputs_load): 0, or -1 after warning(),
 * every count then not known. Only a split's cost rests on them: the
 * list of inputs stands without them.
 */
static int load_objects(struct kernel_inputs *in, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *file = xstrfmt("%s/" INPUTS_OBJECTS_FILE, dir);
	const char *bad = NULL;
	int rc = 0;

	if (file_exists(file) && !read_file(file, &sb)) {
		char *line = sb.buf, *nl, *end;
		long total = strtol(line, &end, 10);

		if (end == line || *end != '\n' || total <= 0) {
			bad = "does not start with the number of objects";
			goto out;
		}
		/*
		 * One image's objects: a second image numbers its own, so
		 * with two only the counts are known.
		 */
		int which = !in->nr_objects;
		if (total > in->nr_objects)
			in->nr_objects = total;
		if (!which) {
			free(in->bits);
			in->bits = NULL;
		}
		for (line = end + 1; *line; line = nl + 1) {
			long count = strtol(line, &end, 10), at;
			char *hex;
			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			if (end == line || *end != '\t' || !end[1] ||
			    count <= 0) {
				bad = "has a line that is not \"<objects>\\t"
				      "<path>\\t<which>\"";
				goto out;
			}
			if ((hex = strchr(end + 1, '\t')))
				*hex++ = '\0';
			/* Counts for the inputs listed, no others. */
			at = str_index_get(&in->index, end + 1,
					   STR_INDEX_WHOLE);
			if (at >= 0 && count > in->objects[at])
				in->objects[at] = count;
			if (which && at >= 0 &&
			    read_bits(in, (size_t)at, hex, total))
				which = 0;
			if (!nl)
				break;
		}
		if (!which) {
			free(in->bits);
			in->bits = NULL;
		}
	} else if (file_exists(file)) {
		bad = "cannot be read";
	}
out:
	if (bad) {
		warning("'%s' %s: what a step costs to build is not known",
			file, bad);
		in->nr_objects = 0;
		for (size_t i = 0; i < in->paths.nr; i++)
			in->objects[i] = 0;
		free(in->bits);
		in->bits = NULL;
		rc = -1;
	}
	free(file);
	strbuf_release(&sb);
	return rc;
}

int inputs_load(struct kernel_inputs *in, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *file = xstrfmt("%s/" INPUTS_FILE, dir);
	int rc = 1;

	if (file_exists(file)) {
		rc = read_file(file, &sb) ? -1 : 0;
		for (char *line = sb.buf, *nl; !rc && line && *line;
		     line = nl ? nl + 1 : NULL) {
			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			if (*line)
				inputs_add(in, line);
		}
		if (!rc)
			load_objects(in, dir);
	}
	free(file);
	strbuf_release(&sb);
	return rc;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The folder of `path` with its slash ("block/"), "" at the top. */
static int folder_visited(const struct kernel_inputs *in, const char *path,
			  size_t len)
{
	return !len || str_index_get(&in->index, path, len) >= 0;
}

/* Within a tree the set names whole: a "tools/objtool/" line with "**". */
static int under_whole_tree(const struct kernel_inputs *in, const char *path)
{
	struct strbuf key = STRBUF_INIT;
	int found = 0;

	for (const char *s = strchr(path, '/'); s && !found;
	     s = strchr(s + 1, '/')) {
		strbuf_reset(&key);
		strbuf_add(&key, path, (size_t)(s - path) + 1);
		strbuf_addstr(&key, "**");
		found = str_index_get(&in->index, key.buf, STR_INDEX_WHOLE) >=
			0;
	}
	strbuf_release(&key);
	return found;
}

/* Scripts people run by hand, which no build runs. */
static const char *const scripts_not_built[] = {
	"scripts/checkpatch.pl", "scripts/get_maintainer.pl",
	"scripts/spelling.txt",	 "scripts/const_structs.checkpatch",
};

int inputs_can_change(const struct kernel_inputs *in, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;

	if (str_index_get(&in->index, path, STR_INDEX_WHOLE) >= 0 ||
	    under_whole_tree(in, path))
		return 1;
	/*
	 * What is built, and how: no .cmd file names these, yet a change
	 * to one can add an object, drop one, or change every command.
	 * make reads a folder's Makefile only when it goes into it.
	 */
	if ((starts(base, "Makefile") || starts(base, "Kbuild")) &&
	    folder_visited(in, path, dir))
		return 1;
	if (starts(path, "scripts/")) {
		for (size_t i = 0; i < ARRAY_SIZE(scripts_not_built); i++)
			if (!strcmp(path, scripts_not_built[i]))
				return 0;
		return 1;
	}
	/* A base configuration: kernel/configs/, arch/<arch>/configs/. */
	if (starts(path, "kernel/configs/"))
		return 1;
	if (starts(path, "arch/")) {
		const char *next = strchr(path + 5, '/');
		if (next && starts(next + 1, "configs/"))
			return 1;
	}
	return 0;
}

long inputs_objects(const struct kernel_inputs *in, const char *path)
{
	long at;

	if (in->nr_objects <= 0)
		return -1;
	if (!inputs_can_change(in, path))
		return 0;
	at = str_index_get(&in->index, path, STR_INDEX_WHOLE);
	return at >= 0 && in->objects[at] > 0 ? in->objects[at]
					      : in->nr_objects;
}

const uint64_t *inputs_object_bits(const struct kernel_inputs *in,
				   const char *path)
{
	long at = str_index_get(&in->index, path, STR_INDEX_WHOLE);

	if (!in->bits || at < 0 || (size_t)at >= in->rows ||
	    in->objects[at] <= 0)
		return NULL;
	return in->bits + (size_t)at * in->words;
}

int inputs_objects_join(const struct kernel_inputs *in, const char *path,
			uint64_t *which)
{
	long n = inputs_objects(in, path);
	const uint64_t *bits;

	if (n <= 0)
		return 0;
	if (n >= in->nr_objects || !(bits = inputs_object_bits(in, path)))
		return 1;
	for (size_t w = 0; w < in->words; w++)
		which[w] |= bits[w];
	return 0;
}
