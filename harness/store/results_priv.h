/*
 * results_priv.h: what the results store's own files share; nothing else
 * includes it. results.c (a boot stored, its number reserved) and
 * results_load.c (documents read back as evidence) both speak of the
 * machine (results_machine.c) and of the layout's file names
 * (results_path.c).
 */
#ifndef IOBISECT_RESULTS_PRIV_H
#define IOBISECT_RESULTS_PRIV_H

#include "results.h"

/* A document's "machine" object for `m`, as results_store_boot writes it. */
json_t *results_machine_json(const struct machine_id *m);
/*
 * `m` from a document's "machine" object `o`: fields that are missing stay
 * empty, and a clock that does not read is the wall clock (results_doc_read
 * refuses such a document before it gets here).
 */
void results_machine_from_json(json_t *o, struct machine_id *m);

/*
 * The boot a file of the layout belongs to: "boot-12.json",
 * "boot-12.console.log", "boot-12-sample-0.json" -> 12; -1 for any other
 * name.
 */
long results_boot_number(const char *name);

#endif
