/*
 * publish.h: what a run sends out when it ends, for a lab that runs it
 * unattended: --upload sends every document of a results folder to an
 * ingest endpoint (upload.h; what cannot be sent waits in the spool), and
 * --notify posts one short webhook message per regression found. A
 * nightly sweep finds yesterday's regressions again: the change points
 * already notified are listed in results/<job>/notified.txt, so each is
 * announced once. Neither changes a run's exit code: the result stands.
 */
#ifndef IOBISECT_PUBLISH_H
#define IOBISECT_PUBLISH_H

#include "upload.h"

/* Send the documents under `dir`; prints "upload: N sent, ...". */
void publish_upload(const char *url, const char *dir);

/*
 * Post `n` to `url` unless `seen_key` ("good..bad culprit") is listed in
 * `dir`/notified.txt; on success it is added. NULL seen_key: always.
 * Prints "notified URL". 0, or -1 after error().
 */
int publish_notice(const char *url, const struct upload_notice *n,
		   const char *dir, const char *seen_key);

#endif
