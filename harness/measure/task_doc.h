/*
 * task_doc.h: what a probe run elsewhere (a Slurm task running `iobisect
 * measure`) leaves for the run that sent it, beside the boots it stored:
 *
 *   <results>/<job>/.tasks/<commit12>.json
 *
 * whether the commit built and booted (and if not, how it failed and
 * where the log is), its build key, and the per-boot values it read back
 * on its own machine. The values travel in the document because pooling
 * never mixes machines (results.h): the sending run's host may differ
 * from the node's, and would read none of the node's boots as its own.
 * Written atomically, after the boots; a task that died before leaves the
 * previous document or none.
 */
#ifndef IOBISECT_TASK_DOC_H
#define IOBISECT_TASK_DOC_H

#include "marks.h"
#include "results.h"

struct task_doc {
	char commit[41];
	char key[41]; /* build key, "" when the build was not tried */
	int ok;	      /* built, and every boot asked for stored */
	enum probe_outcome outcome; /* !ok: how it failed */
	int cached;		    /* image served from the build cache */
	char *first_error;	    /* !ok: owned, may be NULL */
	char *log;		    /* !ok: owned, may be NULL */
	char *host;		    /* the node it ran on, owned */
	struct sample_set set; /* per-boot values, as probe_load gave them */
};
void task_doc_init(struct task_doc *t);
void task_doc_release(struct task_doc *t);

/* results/<job>/.tasks/<commit12>.json; caller frees. */
char *task_doc_path(const char *results, const char *job, const char *commit);

/* 0, or -1 after error() naming the file. */
int task_doc_write(const struct task_doc *t, const char *path);
/*
 * Read `path` into t (task_doc_init first). 1 when there is no document,
 * 0 when read, -1 after error() naming the file and what is wrong.
 */
int task_doc_read(struct task_doc *t, const char *path);

#endif
