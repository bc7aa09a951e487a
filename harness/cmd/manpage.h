/*
 * manpage.h: iobisect's man pages, made from its tables (manpage.c):
 * iobisect(1) from the table of commands, iobisect-CMD(1) from each
 * command's table of options, iobisect-job(5) from the job's keys
 * (job_keys.h). The pages in docs/man/ are these, written by `make man`;
 * a unit check fails when one differs from what its table makes.
 */
#ifndef IOBISECT_MANPAGE_H
#define IOBISECT_MANPAGE_H

struct strbuf;
struct strvec;

/* Every page's file name ("iobisect.1", "iobisect-bisect.1", ...). */
void manpage_names(struct strvec *out);

/*
 * Append the page called `name` (one of manpage_names()) to `out`, in
 * roff. 0, or -1 after error() for a name that is no page.
 */
int manpage_write(struct strbuf *out, const char *name);

#endif
