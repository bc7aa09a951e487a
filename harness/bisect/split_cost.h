/*
 * split_cost.h: driver.h's build_cost operation for a job's repository:
 * what a commit costs to build beside every commit this host has built
 * (build_cost.h: ccache's when the build goes through it, else the build
 * folders at hand), in objects, so each step is the cheapest commit near
 * the middle (bisect_next_split). Set up on its first question from the
 * bad endpoint's image, which the cache holds by then (the steps come
 * after the endpoints); a run that cannot set it up (no such image, an
 * image made elsewhere) asks no more and steps at the middle.
 */
#ifndef IOBISECT_SPLIT_COST_H
#define IOBISECT_SPLIT_COST_H

#include "build_cost.h"
#include "job.h"
#include "repo.h"

struct split_cost {
	const struct job *job;
	struct repo *repo;
	const char *bad; /* the bad endpoint (borrowed) */
	struct build_cost bc;
	int ready; /* 0: not set up yet, 1: set up, -1: cannot be */
};
#define SPLIT_COST_INIT                                                        \
	{                                                                      \
		NULL, NULL, NULL, BUILD_COST_INIT, 0                           \
	}

/* The operation: arg is a struct split_cost. -1 when not known. */
long split_cost_of(void *arg, const char *commit);
void split_cost_release(struct split_cost *s);

#endif
