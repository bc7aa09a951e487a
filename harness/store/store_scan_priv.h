/*
 * store_scan_priv.h: what store_scan.c shares with the file that orders
 * its commits (store_scan_order.c); nothing else includes it.
 */
#ifndef IOBISECT_STORE_SCAN_PRIV_H
#define IOBISECT_STORE_SCAN_PRIV_H

#include "store_scan.h"

/*
 * Put s->commits in history order and say which (s->order); a bisect
 * state that orders them is loaded into s->state (s->has_state). An
 * invalid state is an error, or with SCAN_STATE_OPTIONAL a warning, and
 * then the sweep state or the timestamps order them. 0, or -1 after
 * error().
 */
int scan_order_commits(struct scan *s, unsigned flags);

#endif
