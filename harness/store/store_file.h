/*
 * store_file.h: how a file of the results folder is read. The folder may
 * come from anyone (a copied store, a shared disk, an unpacked tarball),
 * so a file there is read only when it is a regular file of the folder:
 * a symbolic link is refused by name, even to a regular file, since its
 * contents would reach the reports as the folder's; a FIFO or a device
 * is refused without waiting for a writer; and a file past the cap of
 * its kind of document is refused before it is read. Each costs one
 * error line that names the file (and the cap), not a hang, the
 * machine's memory or another file's contents on a page.
 *
 * The caps, one per kind of document (a sample document's,
 * RESULTS_DOC_MAX, is in results.h; report.txt's and summary.json's
 * with their reader, bisect_report_load.c):
 */
#ifndef IOBISECT_STORE_FILE_H
#define IOBISECT_STORE_FILE_H

#include "util.h"

#include <jansson.h>

/*
 * bisect-state.json and sweep-state.json: their size grows with the
 * range, one full id (about 48 bytes written) per commit of it; 64 MiB
 * holds a range of more than a million commits, all of Linux's history.
 */
#define STORE_STATE_MAX ((size_t)64 << 20)
/*
 * profile.json: one entry (about 64 bytes written) per kernel function
 * that ran; 16 MiB holds 250,000, more than any kernel's System.map has
 * functions. (A 70 MB one made a 146 MB page.)
 */
#define STORE_PROFILE_MAX ((size_t)16 << 20)
/*
 * table.json: a cell (about 100 bytes written) per point of the job's
 * matrix, which has at most JOB_MAX_POINTS (4096).
 */
#define STORE_TABLE_MAX ((size_t)4 << 20)

/*
 * Is anything at `path`, a link (even a dangling one) or a FIFO too?
 * What is there but cannot be read is for store_file_read to refuse by
 * name, never to be taken for "no such file".
 */
int store_file_exists(const char *path);

/*
 * Append the regular file `path` of the results folder, of at most `max`
 * bytes, to `out`, as above. 0, or -1 after one error line naming it.
 */
int store_file_read(const char *path, struct strbuf *out, size_t max);

/*
 * The same file parsed as JSON (`flags` as json_loadb takes them), or
 * NULL after one error line naming it: why it was refused, or where its
 * JSON breaks.
 */
json_t *store_json_read(const char *path, size_t max, size_t flags);

/*
 * For a document a report can go without (a profile, a table): NULL when
 * there is none, or after one warning, "ignoring <what>: <why>"; the
 * report goes on, as it does past a sample document it cannot use.
 */
json_t *store_json_optional(const char *path, size_t max, size_t flags,
			    const char *what);

#endif
