/*
 * kbuild.c: cached, incremental kernel builds (see kbuild.h). Layout under
 * cache_dir():
 *   trees/<repo-id>/<slot>/src          a private source tree per slot
 *   trees/<repo-id>/<slot>/obj/<cfg12>  an O= build folder, reused
 *   images/<key>/{bzImage,System.map,inputs,build.log,key.json}
 * A key with a bzImage is a hit: no checkout, no make (unless its map or
 * its inputs are wanted and cannot be had otherwise: kmap.h, inputs.h).
 * kbuild_image is its steps, over one struct kbuild_run; the parts that
 * run nothing are in kbuild_pure.c.
 */
#include "kbuild.h"
#include "kbuild_tools.h"
#include "kmap.h"
#include "inputs.h"
#include "kconfig.h"
#include "objdir_guard.h"
#include "objdir_last.h"
#include "prebuilt.h"
#include "repo.h"
#include "run.h"
#include "toolenv.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A progress line, only for a person watching a terminal. */
static void progress(const struct build_request *req, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void progress(const struct build_request *req, const char *fmt, ...)
{
	if ((req->flags & BUILD_QUIET) || !isatty(2))
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("build: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Open and flock `path`, telling a person when another run holds it. */
static int lock_file(const struct build_request *req, const char *path)
{
	int fd = open_nofollow(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		progress(req, "waiting for '%s' (another build holds it)",
			 path);
		if (flock(fd, LOCK_EX)) {
			close(fd);
			return error("cannot lock '%s': %s", path,
				     strerror(errno));
		}
	}
	return fd;
}

/* .o files under objdir written since `since`: what this build rebuilt. */
static long objects_newer(const char *objdir, struct timespec since)
{
	long n = objdir_files_since(objdir, since, ".o", 0);
	return n < 0 ? 0 : n;
}

static int write_key_json(const char *dir, const struct build_result *res,
			  const char *tree_id, const char *config_hash,
			  const char *toolchain_id, const char *merged)
{
	json_t *j = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:f, s:i}", "key", res->key,
		"commit", res->commit, "tree", tree_id, "config_hash",
		config_hash, "toolchain", toolchain_id, "build_s", res->seconds,
		"objects_rebuilt", (json_int_t)res->objects_rebuilt);
	if (!j)
		return error("cannot describe build '%s'", res->key);
	json_object_set_new(j, "kconfig", json_string(merged));
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(j);
	char *path = xstrfmt("%s/key.json", dir);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, text);
	strbuf_addch(&sb, '\n');
	int rc = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	free(path);
	free(text);
	return rc;
}

/* imgdir/failed holds the first compiler error of a failed build. */
#define FAILED_FILE "failed"

/* The cache's folder of build key `key`. */
static char *imgdir_of(const char *key)
{
	return xstrfmt("%s/images/%s", cache_dir(), key);
}

int kbuild_cached(const char *key)
{
	char *dir = imgdir_of(key);
	char *image = xstrfmt("%s/bzImage", dir);
	char *failed = xstrfmt("%s/" FAILED_FILE, dir);
	int hit = file_exists(image) || file_exists(failed);

	free(image);
	free(failed);
	free(dir);
	return hit;
}

/* A build of this key failed before with a compiler error: say so again. */
static int cached_failure(const char *imgdir, struct build_result *out)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = xstrfmt("%s/" FAILED_FILE, imgdir);
	int found = file_exists(path) && !read_file(path, &sb);
	free(path);
	if (!found) {
		strbuf_release(&sb);
		return 0;
	}
	out->cached = 1;
	out->first_error = strbuf_detach(&sb);
	error("build of %.12s failed (cached result): %s", out->commit,
	      out->first_error);
	return 1;
}

/*
 * A cached image serves the request, unless a map or its inputs are
 * wanted and cannot be had without building it again (kmap.h, inputs.h).
 */
static int cached_serves(const struct build_request *req, const char *imgdir)
{
	if ((req->flags & BUILD_WANT_MAP) && kmap_adopt(imgdir) <= 0) {
		progress(req, "the cached image has no System.map (built "
			      "before maps were kept): building it again");
		return 0;
	}
	if ((req->flags & BUILD_WANT_INPUTS) && inputs_adopt(imgdir) <= 0) {
		progress(req, "the cached image has no list of the files it "
			      "was built from (built before they were kept): "
			      "building it again");
		return 0;
	}
	return 1;
}

/*
 * A cached image made before its inputs were kept takes them from its
 * build folder while that folder still holds it; else it stays without
 * (narrow.h then bisects every commit, and says why).
 */
static void adopt_inputs(const char *imgdir)
{
	if (inputs_adopt(imgdir) < 0)
		warning("the files the image in '%s' was built from could not "
			"be listed",
			imgdir);
}

static struct kconfig_spec default_spec(void)
{
	struct kconfig_spec s = {0};
	s.base = "tiny";
	strvec_split(&s.fragments, KCONFIG_DEFAULT_FRAGMENTS, ',');
	return s;
}

/*
 * The date make stamps into the kernel: one fixed date for every build,
 * not the commit's. The built-in initramfs takes its files' mtimes from it
 * and is regenerated only when its file list changes, not when the date
 * does, so a commit's date would outlive its build in the build folder and
 * the next commit's image would carry it: the same key, other bytes,
 * depending on what the folder built before.
 */
#define BUILD_TIMESTAMP "Thu Jan  1 00:00:00 UTC 1970"

/*
 * Paths in the private tree say more relative to its top: the compiler
 * names a file by its absolute path, or, with ccache's base_dir, as
 * "../../src/..." from the build folder.
 */
static void strip_tree_prefix(char *line, const char *srcdir)
{
	static const char rel[] = "../../src/";
	size_t sl = strlen(srcdir), skip = 0;

	if (!strncmp(line, srcdir, sl) && line[sl] == '/')
		skip = sl + 1;
	else if (!strncmp(line, rel, sizeof(rel) - 1))
		skip = sizeof(rel) - 1;
	if (skip)
		memmove(line, line + skip, strlen(line + skip) + 1);
}

/*
 * One tree per repository and slot, its build folders beside it:
 * trees/<repo>/<slot>/src and trees/<repo>/<slot>/obj/<config>.
 * Every build folder sits at the same place relative to its source tree,
 * so with ccache's base_dir at trees/ the compiler is handed the same
 * relative paths in every slot of every repository: a second slot, or a
 * second clone of the same kernel, builds from the first one's ccache
 * hits. Caller frees.
 */
static char *tree_dir(const struct repo *repo, unsigned slot)
{
	return xstrfmt("%s/trees/%s/%u", cache_dir(), repo_id(repo), slot);
}

/*
 * The slot a build runs in. A slot past 0 is for a build beside another;
 * slot 0's tree has been built before and is warm, where another slot's
 * first build makes the whole tree (from ccache hits at best: minutes).
 * So slot 0 is taken when no build holds it; then *src_fd holds its lock.
 */
static unsigned pick_slot(const struct repo *repo, unsigned want, int *src_fd)
{
	char *tree0, *lock0;
	int fd;

	if (!want)
		return 0;
	tree0 = tree_dir(repo, 0);
	lock0 = xstrfmt("%s/src.lock", tree0);
	fd = open(lock0, O_RDWR | O_CLOEXEC);
	free(lock0);
	free(tree0);
	if (fd < 0)
		return want;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return want;
	}
	*src_fd = fd;
	return 0;
}

/* One kbuild_image call: what its steps share. */
struct kbuild_run {
	const struct build_request *req;
	struct build_result *out;
	const struct kconfig_spec *spec;
	struct kconfig_spec fallback;
	struct repo *repo;
	char tree_id[41], config_hash[41];
	unsigned kver;
	struct strbuf merged;	  /* the configuration's fragments, merged */
	struct kbuild_tools tools; /* the compilers, where they run */
	char *imgdir, *treedir, *objdir, *srcdir;
	int src_fd, obj_fd;
	int guarded; /* the killed-make mark is ours to remove */
	struct strvec vars, menv; /* make's variables, its environment */
};

/* The commit, its tree and kernel version, and the configuration. */
static int resolve_source(struct kbuild_run *b)
{
	const struct build_request *req = b->req;

	if (!b->spec) {
		b->fallback = default_spec();
		b->spec = &b->fallback;
	}
	if (repo_open(&b->repo, req->repo) ||
	    repo_resolve(b->repo, req->rev, b->out->commit) ||
	    repo_kernel_version(b->repo, b->out->commit, &b->kver) ||
	    repo_tree_id(b->repo, b->out->commit, b->tree_id))
		return -1;
	return kconfig_merge(b->spec, b->kver, &b->merged) ||
			       kconfig_hash(b->spec, b->merged.buf,
					    b->config_hash)
		       ? -1
		       : 0;
}

/* The compilers for this kernel, their identity, and the build key. */
static int identify_toolchain(struct kbuild_run *b)
{
	const struct build_request *req = b->req;

	if (kbuild_tools_pick(&b->tools, req->toolchains, req->nr_toolchains,
			      b->kver))
		return -1;
	b->out->ccache = b->tools.ccache;
	kbuild_key(b->tree_id, b->config_hash, b->tools.id, b->out->key);
	return 0;
}

/*
 * The cache answers: 1 with *status set (an image, or a compiler error
 * remembered), 0 when make must run. `failures` also asks for the
 * remembered error (not once the locks are held).
 */
static int cache_answers(struct kbuild_run *b, int failures,
			 enum build_status *status)
{
	if (b->req->flags & BUILD_NO_CACHE)
		return 0;
	if (file_exists(b->out->image) && cached_serves(b->req, b->imgdir)) {
		b->out->cached = 1;
		*status = BUILD_OK;
		adopt_inputs(b->imgdir);
		return 1;
	}
	if (failures && cached_failure(b->imgdir, b->out)) {
		*status = BUILD_FAILED;
		return 1;
	}
	return 0;
}

/* A slot's source tree and build folder, both locked, in that order. */
static int take_folders(struct kbuild_run *b)
{
	char *srclock, *objlock;
	int rc = 0;

	b->treedir = tree_dir(b->repo, pick_slot(b->repo, b->req->slot,
						 &b->src_fd));
	/*
	 * Another environment's compiler would make make rebuild the whole
	 * folder, and the host's after it again: a folder of its own each.
	 */
	if (b->tools.env_id) {
		char env_hash[41];
		hash_hex(b->tools.env_id, strlen(b->tools.env_id), env_hash);
		b->objdir = xstrfmt("%s/obj/%.12s-%.8s", b->treedir,
				    b->config_hash, env_hash);
	} else {
		b->objdir = xstrfmt("%s/obj/%.12s", b->treedir,
				    b->config_hash);
	}
	srclock = xstrfmt("%s/src.lock", b->treedir);
	objlock = xstrfmt("%s.lock", b->objdir);
	/* The cache's folders, as the results folder's: no link followed. */
	if (mkdir_below(cache_dir(), b->imgdir, 0755) ||
	    mkdir_below(cache_dir(), b->objdir, 0755))
		rc = -1;
	/* Source tree first, then build folder: one order, no deadlock. */
	else if ((b->src_fd < 0 &&
		  (b->src_fd = lock_file(b->req, srclock)) < 0) ||
		 (b->obj_fd = lock_file(b->req, objlock)) < 0)
		rc = -1;
	free(srclock);
	free(objlock);
	return rc;
}

/* The log's header, then the commit checked out into the slot's tree. */
static int check_out(struct kbuild_run *b)
{
	struct build_result *out = b->out;
	struct strbuf log = STRBUF_INIT;
	int rc;

	b->srcdir = xstrfmt("%s/src", b->treedir);
	strbuf_addf(&log,
		    "# iobisect build %s\n# commit %s\n# tree %s\n"
		    "# config %s\n# toolchain %s\n# objdir %s\n# srcdir %s\n",
		    out->key, out->commit, b->tree_id, b->config_hash,
		    b->tools.id, b->objdir, b->srcdir);
	rc = write_file_atomic(out->log, log.buf, log.len);
	strbuf_release(&log);
	if (rc)
		return -1;
	progress(b->req, "checking out %.12s", out->commit);
	/* From here the folder holds a mix until its image is kept. */
	return objdir_last_begin(b->objdir, out->commit) ||
	       repo_checkout(b->repo, out->commit, b->srcdir);
}

/* make's variables and environment: compilers, ccache, a fixed stamp. */
static void make_settings(struct kbuild_run *b)
{
	strvec_push(&b->vars, "ARCH=x86_64");
	kbuild_tools_settings(&b->tools, &b->vars, &b->menv);
	strvec_push(&b->vars, "LOCALVERSION=");
	strvec_push(&b->menv, "KBUILD_BUILD_TIMESTAMP=" BUILD_TIMESTAMP);
	strvec_push(&b->menv, "KBUILD_BUILD_USER=iobisect");
	strvec_push(&b->menv, "KBUILD_BUILD_HOST=iobisect");
	strvec_push(&b->menv, "KBUILD_BUILD_VERSION=1");
	/*
	 * Plain ASCII messages, so first_error reads the same everywhere
	 * (the kernel's Makefile unexports LC_ALL, so set the parts).
	 */
	strvec_push(&b->menv, "LANG=C");
	strvec_push(&b->menv, "LC_CTYPE=C");
	strvec_push(&b->menv, "LC_MESSAGES=C");
}

/* The build folder guarded against a killed make, then configured. */
static int configure(struct kbuild_run *b, enum build_status *status)
{
	const struct build_request *req = b->req;
	/* What a make killed in this folder left half-written goes first. */
	long removed = objdir_guard_begin(b->objdir);

	if (removed < 0)
		return -1;
	if (removed)
		progress(req, "a build killed in %s left %ld files: removed",
			 b->objdir, removed);
	b->guarded = 1;
	progress(req, "configuring (%s)",
		 b->spec->base ? b->spec->base : "tiny");
	struct kconfig_step step = {
		.srcdir = b->srcdir,
		.objdir = b->objdir,
		.base = b->spec->base,
		.merged = b->merged.buf,
		.make_vars = (const char *const *)b->vars.v,
		.env = (const char *const *)b->menv.v,
		.log = b->out->log,
		.toolenv = b->tools.env,
	};
	if (kconfig_configure(&step)) {
		*status = BUILD_CONFIG_ERROR;
		return -1;
	}
	/*
	 * The built-in initramfs is regenerated only when its file list
	 * changes; a folder made before the build date was fixed holds one
	 * with another date. Made afresh each build, it costs a second.
	 */
	char *cpio = xstrfmt("%s/usr/initramfs_data.cpio", b->objdir);
	if (unlink(cpio) && errno != ENOENT)
		warning("cannot remove '%s': %s", cpio, strerror(errno));
	free(cpio);
	return 0;
}

/*
 * A failed make: its first compiler error, remembered when it is the
 * tree's own. A compiler error in the tree comes back the same every time
 * (builds are reproducible): remembered, a bisection that meets the
 * commit again skips it without running make. Anything else (killed,
 * interrupted, only make's own "*** Error" line, as a half-written .cmd
 * file in the build folder gives) may be the machine's fault and is not
 * kept: make runs again next time.
 */
static void make_failed(struct kbuild_run *b, int rc)
{
	struct build_result *out = b->out;
	struct strbuf text = STRBUF_INIT;

	if (!read_file(out->log, &text))
		out->first_error = kbuild_first_error(text.buf);
	if (out->first_error)
		strip_tree_prefix(out->first_error, b->srcdir);
	strbuf_release(&text);
	if (out->first_error && rc > 0 && !run_interrupted() &&
	    kbuild_is_compiler_error(out->first_error,
				     strlen(out->first_error))) {
		char *failed = xstrfmt("%s/" FAILED_FILE, b->imgdir);
		write_file_atomic(failed, out->first_error,
				  strlen(out->first_error));
		free(failed);
	}
	if (out->first_error)
		error("build of %.12s failed: %s", out->commit,
		      out->first_error);
	else
		error("build of %.12s failed (exit %d), see '%s'", out->commit,
		      rc, out->log);
}

/* make bzImage in the build folder: 0, or -1 with *status set. */
static int make_image(struct kbuild_run *b, enum build_status *status)
{
	const struct build_request *req = b->req;
	struct strvec argv = STRVEC_INIT;
	struct run_opts o = RUN_OPTS_INIT;
	struct timespec make_start;
	long jobs = req->jobs > 0 ? req->jobs : sysconf(_SC_NPROCESSORS_ONLN);
	int rc;

	clock_gettime(CLOCK_REALTIME, &make_start);
	/* Filesystem timestamps may be coarser than the clock. */
	make_start.tv_nsec = 0;
	strvec_push(&argv, "make");
	strvec_pushf(&argv, "-C%s", b->srcdir);
	strvec_pushf(&argv, "O=%s", b->objdir);
	strvec_pushf(&argv, "-j%ld", jobs > 0 ? jobs : 1);
	for (size_t i = 0; i < b->vars.nr; i++)
		strvec_push(&argv, b->vars.v[i]);
	strvec_push(&argv, "bzImage");

	progress(req, "make -j%ld bzImage (log: %s)", jobs, b->out->log);
	o.argv = (const char *const *)argv.v;
	o.env = (const char *const *)b->menv.v;
	o.stdout_path = b->out->log;
	o.stderr_to_stdout = 1;
	rc = toolenv_run(b->tools.env, b->srcdir, b->objdir, &o);
	strvec_clear(&argv);
	/* Killed here, the harness leaves the mark for the next build. */
	objdir_guard_end(b->objdir);
	b->guarded = 0;
	b->out->objects_rebuilt = objects_newer(b->objdir, make_start);
	if (!rc)
		return 0;
	*status = BUILD_FAILED;
	make_failed(b, rc);
	return -1;
}

/*
 * The image into the cache, with its map, its inputs and its key.json.
 * The map and the inputs first: an image in the cache is a hit, with
 * them or not. Without its inputs a bisection only bisects every commit,
 * so their failure is a warning.
 */
static int store_image(struct kbuild_run *b, uint64_t start)
{
	struct build_result *out = b->out;
	char *objimage = xstrfmt("%s/arch/x86/boot/bzImage", b->objdir);
	int rc;

	if (inputs_keep(b->objdir, b->srcdir, b->imgdir))
		warning("the files %.12s was built from are not kept: a "
			"bisection ending at it will build every commit",
			out->commit);
	rc = kmap_keep(b->objdir, b->imgdir) ||
	     copy_file(objimage, out->image, 0644);
	free(objimage);
	if (rc)
		return -1;
	out->seconds = (double)(now_ns() - start) / 1e9;
	return write_key_json(b->imgdir, out, b->tree_id, b->config_hash,
			      b->tools.id, b->merged.buf) ||
	       objdir_last_write(b->objdir, out->commit, b->imgdir);
}

/* The caller's one line on a failure, several errors made one. */
static void failure_message(struct build_result *out, const struct strbuf *msg,
			    enum build_status status)
{
	struct strbuf line = STRBUF_INIT;

	for (size_t i = 0; i < msg->len; i++)
		if (msg->buf[i] == '\n')
			strbuf_addstr(&line, "; ");
		else
			strbuf_addch(&line, msg->buf[i]);
	if (!line.len)
		strbuf_addf(&line, "build %s", build_status_name(status));
	out->message = strbuf_detach(&line);
	free(out->image);
	out->image = NULL;
	if (out->log && !file_exists(out->log)) {
		free(out->log);
		out->log = NULL;
	}
}

static void kbuild_run_release(struct kbuild_run *b)
{
	/* A configure step that failed was not killed. */
	if (b->guarded)
		objdir_guard_end(b->objdir);
	if (b->obj_fd >= 0)
		close(b->obj_fd);
	if (b->src_fd >= 0)
		close(b->src_fd);
	if (b->fallback.fragments.v)
		strvec_clear(&b->fallback.fragments);
	repo_free(b->repo);
	strbuf_release(&b->merged);
	strvec_clear(&b->vars);
	strvec_clear(&b->menv);
	kbuild_tools_release(&b->tools);
	free(b->imgdir);
	free(b->objdir);
	free(b->srcdir);
	free(b->treedir);
}

int kbuild_image(struct build_result *out, const struct build_request *req)
{
	struct strbuf msg = STRBUF_INIT;
	struct kbuild_run b;
	uint64_t start = now_ns();
	enum build_status status = BUILD_SETUP_ERROR;

	if (req->prebuilt)
		return prebuilt_image(out, req->prebuilt, req->repo, req->rev);
	memset(out, 0, sizeof(*out));
	memset(&b, 0, sizeof(b));
	b.req = req;
	b.out = out;
	b.spec = req->kconfig;
	b.src_fd = b.obj_fd = -1;
	strbuf_init(&b.merged);
	error_capture(&msg);

	if (resolve_source(&b) || identify_toolchain(&b))
		goto out;
	b.imgdir = imgdir_of(out->key);
	out->image = xstrfmt("%s/bzImage", b.imgdir);
	out->log = xstrfmt("%s/build.log", b.imgdir);
	if (cache_answers(&b, 1, &status))
		goto out;
	if (req->flags & BUILD_CACHE_ONLY) {
		error("%.12s is not in the cache", out->commit);
		goto out;
	}
	if (take_folders(&b))
		goto out;
	/* Whoever held the lock may have just built this very key. */
	if (cache_answers(&b, 0, &status) || check_out(&b))
		goto out;
	make_settings(&b);
	if (configure(&b, &status) || make_image(&b, &status) ||
	    store_image(&b, start))
		goto out;
	status = BUILD_OK;
out:
	if (b.guarded) {
		objdir_guard_end(b.objdir);
		b.guarded = 0;
	}
	error_capture(NULL);
	out->status = status;
	out->seconds = (double)(now_ns() - start) / 1e9;
	if (status != BUILD_OK)
		failure_message(out, &msg, status);
	kbuild_run_release(&b);
	strbuf_release(&msg);
	return status == BUILD_OK ? 0 : -1;
}
