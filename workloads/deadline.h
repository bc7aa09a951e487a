/*
 * deadline.h: the time bound of one sample (the `runtime_ms` point key, as
 * fio's runtime with time_based): the threads that move a sample's data,
 * the movers, run until their bytes are done or the deadline passes,
 * whichever comes first. The thread that times the sample sleeps until one
 * of the two and then raises a flag that the movers read between requests.
 */
#ifndef IOBISECT_GUEST_DEADLINE_H
#define IOBISECT_GUEST_DEADLINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct deadline {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t runtime_ns; /* 0: no time bound */
	int running;	     /* movers not done yet */
	atomic_int passed;   /* set once the deadline passed */
};

/*
 * When a sample started at start_ns with a bound of runtime_ns must stop,
 * on the CLOCK_MONOTONIC scale of sys_now_ns(); 0 when runtime_ns is 0 (no
 * bound). Saturates rather than wrapping around.
 */
uint64_t deadline_at(uint64_t start_ns, uint64_t runtime_ns);

/* Set up for `movers` threads and a bound of runtime_ns (0: none). -1 with
 * errno set when the mutex or condition cannot be made. */
int deadline_init(struct deadline *d, int movers, uint64_t runtime_ns);
void deadline_release(struct deadline *d);

/*
 * For a mover, before each request, given the bytes it has moved so far:
 * 1 when it must stop, that is once the deadline has passed and it has made
 * one request at least, so that every sample has a rate.
 */
int deadline_stops(struct deadline *d, uint64_t moved);
/* For a mover, once it stops for any reason (bytes done, an error, or the
 * deadline): the timing thread waits for every mover to say so. */
void deadline_done(struct deadline *d);

/*
 * For the timing thread, just after the movers were released at start_ns:
 * sleep until every mover is done or the deadline passes, and in the second
 * case raise the flag. Returns 1 when the deadline ended the wait, 0 when
 * the movers finished first. The movers may still be finishing a request
 * when it returns: join them before reading the clock.
 */
int deadline_wait(struct deadline *d, uint64_t start_ns);

#endif
