/*
 * util.h: the small things every module of the harness needs: error
 * reporting in git's style, allocation that cannot return NULL, a growable
 * string buffer whose buffer is never NULL, and file helpers (atomic
 * writes, recursive mkdir, the cache folder).
 */
#ifndef IOBISECT_UTIL_H
#define IOBISECT_UTIL_H

#include <stdarg.h>
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * error() prints "error: <message>" on stderr and returns -1, so a failing
 * function can `return error("cannot open '%s': %s", path, strerror(errno));`.
 * warning() prints "warning: <message>". die() prints "fatal: <message>" and
 * exits 128; it is for main and the cmd_* layer only.
 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * When set, error() and warning() append to this buffer instead of printing,
 * so a caller (a test, or a probe that records why it failed) can keep the
 * message. NULL (the default) prints to stderr. Returns the buffer that was
 * set before, for the caller to put back.
 */
struct strbuf;
struct strbuf *error_capture(struct strbuf *sb);
/* The last error line printed (escaped, cut to a line), or NULL. */
const char *error_last(void);

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow an array `a` of `nr` used entries to hold at least `n`. */
#define ALLOC_GROW(a, n, alloc)                                                \
	do {                                                                   \
		if ((size_t)(n) > (alloc)) {                                   \
			(alloc) = (alloc) ? (alloc) * 2 : 16;                  \
			if ((alloc) < (size_t)(n))                             \
				(alloc) = (n);                                 \
			(a) = xrealloc((a), (alloc) * sizeof(*(a)));           \
		}                                                              \
	} while (0)

struct strbuf {
	char *buf; /* always NUL-terminated, never NULL */
	size_t len;
	size_t alloc;
};
extern char strbuf_empty[];
#define STRBUF_INIT { strbuf_empty, 0, 0 }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_trim(struct strbuf *sb);
/*
 * Append `len` bytes from elsewhere (a server's answer, a user's
 * argument) so that they are safe on a terminal and stay on one line:
 * printable ASCII and valid UTF-8 as they are, anything else (escape
 * sequences, newlines, invalid bytes) as \xNN.
 */
void strbuf_addsafe(struct strbuf *sb, const void *data, size_t len);
/*
 * A copy of `s` as strbuf_addsafe writes it: for text from elsewhere (a
 * commit's subject and author, a guest's message) that is printed, put
 * in report.txt and in logs, and must not work the terminal there.
 */
char *xstrdup_safe(const char *s);

/* A NULL-terminated list of owned strings (argv, env, paths). */
struct strvec {
	char **v; /* NULL-terminated, never NULL once initialised */
	size_t nr;
	size_t alloc;
};
#define STRVEC_INIT { NULL, 0, 0 }
void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strvec_clear(struct strvec *sv);
/* Split `s` at every `sep` into `sv`, dropping empty pieces. */
void strvec_split(struct strvec *sv, const char *s, char sep);
/* The index of `s` in `sv`, or -1. */
int strvec_index(const struct strvec *sv, const char *s);

/*
 * An enum saved by its names, names[v] for each value v: the name of `v`,
 * or `other` when the table has none; and the value named `name`, or -1
 * (NULL entries match nothing).
 */
const char *name_of(const char *const *names, size_t nr, size_t v,
		    const char *other);
int name_index(const char *const *names, size_t nr, const char *name);
/* In a list of "key=value" entries, the value of `key`, or NULL. */
const char *strvec_value(const struct strvec *sv, const char *key);

/* Files. All return 0 or -1 after saying what failed. */
int mkdir_p(const char *path, mode_t mode);
/*
 * Append the whole of the regular file `path` to `out`. Anything else (a
 * device, a FIFO, a directory) is refused without being read, and so is a
 * file of more than `max` bytes: a path given by a user or found in a
 * results folder must cost an error, not the machine's memory or a wait
 * for a writer that never comes.
 */
int read_file_max(const char *path, struct strbuf *out, size_t max);
/*
 * The same for a file of a results folder, which must not lead out of it:
 * a symbolic link, even to a regular file, is refused (O_NOFOLLOW).
 */
int read_file_nofollow(const char *path, struct strbuf *out, size_t max);
/*
 * opendir, but NULL (errno ELOOP or ENOTDIR) for a symbolic link: walks
 * of a results folder stay inside it.
 */
DIR *opendir_nofollow(const char *path);
/* The cap of read_file(): files iobisect wrote itself, logs, images. */
#define READ_FILE_MAX ((size_t)64 << 20)
int read_file(const char *path, struct strbuf *out);
/*
 * Write `len` bytes to `path` atomically: a temporary file beside it,
 * fsync, rename over the old one, fsync of the folder. A reader sees the
 * old content or the new one, never a mix, even after a crash. The
 * temporary file's name is new (created with O_EXCL), and a symbolic
 * link at `path` is refused by name, not replaced nor followed.
 */
int write_file_atomic(const char *path, const void *data, size_t len);
/*
 * open() for a file iobisect writes in its own folders (a lock, a log):
 * `flags` with O_NOFOLLOW, so a symbolic link at `path` is refused by
 * name, and anything but a regular file (a FIFO, a device) too, without
 * waiting for it. The fd, or -1 after one error line.
 */
int open_nofollow(const char *path, int flags, mode_t mode);
/*
 * mkdir_p for a folder under `root` (the results folder, the cache, the
 * spool): `root` is made as the user named it, links followed; below it
 * every folder is made or found as a real folder, and a symbolic link
 * (or a file) where one should be is an error naming it. Writes under
 * such a folder stay inside `root`.
 */
int mkdir_below(const char *root, const char *path, mode_t mode);
/*
 * Write an output the user named (a report). A regular file, or a path
 * not there yet, is replaced atomically as above; through a symbolic link
 * the file it points to is, and the link stays. A character device or a
 * FIFO (/dev/null, a pipe) is written in place, and a FIFO nobody reads
 * is an error, not a wait. A folder, a block device or a socket is
 * refused. Any write that falls short (/dev/full) is an error.
 */
int write_output_file(const char *path, const void *data, size_t len);
/*
 * Would writing `path` land inside the folder `dir`, symbolic links
 * followed (the path need not exist yet)? 1 or 0.
 */
int path_inside(const char *path, const char *dir);
/* Do `a` and `b` name the same file, links followed? 1 or 0. */
int same_file_path(const char *a, const char *b);
int copy_file(const char *from, const char *to, mode_t mode);
int file_exists(const char *path);
/* 1 when two files hold the same bytes, 0 when not, -1 when unreadable. */
int files_same(const char *a, const char *b);
int remove_tree(const char *path);
/*
 * Hard links of the tree `from` at `to` (copies across file systems), of
 * the files `to` does not have yet; a missing `from` is an empty tree.
 */
int link_tree(const char *from, const char *to);
/* Absolute form of `path` (need not exist); caller frees. */
char *absolute_path(const char *path);

/*
 * ${XDG_CACHE_HOME:-$HOME/.cache}/iobisect (XDG_CACHE_HOME only when
 * absolute), created on first use. cache_dir_check makes sure it is this
 * user's, that neither its group nor others may write to it, and that a
 * link there is this user's own: 0, or -1 after one error line
 * (no HOME: no cache at all, never a shared /tmp). Commands that use the
 * cache call it first; cache_dir dies where it fails.
 */
int cache_dir_check(void);
const char *cache_dir(void);

/*
 * This machine's name (gethostname), as runs, locks and Slurm tasks name
 * their host; "" when it has none.
 */
const char *host_name(void);

/*
 * FNV-1a over `s` up to `len` bytes or its NUL, from `h` (FNV1A_INIT to
 * start, or a hash to go on from): a quick hash for tables and seeds,
 * not a digest. FNV1A_INIT is the basis the harness has always started
 * from: FNV's published one (14695981039346656037) without its last
 * digit. A pair's order of boots is seeded from it, so it stays.
 */
#define FNV1A_INIT 1469598103934665603ull
uint64_t fnv1a(uint64_t h, const char *s, size_t len);

/* a + b, or UINT64_MAX when that does not fit: a count saturates, never wraps. */
uint64_t u64_add_sat(uint64_t a, uint64_t b);

/* Hex SHA-1 (40 chars + NUL) of a buffer, through libgit2's hasher. */
void hash_hex(const void *data, size_t len, char out[41]);

/* Clocks: monotonic for durations, realtime for timestamps. */
uint64_t now_ns(void);
/* "2026-12-02T10:31:51Z" into a buffer of at least 21 bytes. */
void utc_timestamp(char *out, size_t size);
/* "1m05s", "12.3s", "2h04m" for people. */
void format_duration(char *out, size_t size, double seconds);

/* Nonzero when `s` is valid UTF-8 (what JSON text and a job must be). */
int utf8_valid(const char *s);

/* Parse a whole decimal integer; 0 on success, -1 when not a number. */
int parse_long(const char *s, long *out);
/*
 * Parse a number as a person writes one: digits with at most one point
 * ("10", "2.5"), nothing around them. strtod also takes blanks, signs,
 * exponents, hex, inf and nan, none of which belongs in a threshold.
 * 0 on success, -1 when not such a number.
 */
int parse_decimal(const char *s, double *out);

#endif
