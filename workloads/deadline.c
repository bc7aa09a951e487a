/*
 * deadline.c: the time bound of one sample (see deadline.h). No mover reads
 * the clock: under TCG a clock read can be a trap into QEMU, and one per
 * 4 KiB request would be a cost the sample measures. The movers read one
 * flag instead, and only the timing thread sleeps on the clock.
 */
#include "deadline.h"

#include <errno.h>
#include <time.h>

uint64_t deadline_at(uint64_t start_ns, uint64_t runtime_ns)
{
	if (!runtime_ns)
		return 0;
	if (start_ns > UINT64_MAX - runtime_ns)
		return UINT64_MAX;
	return start_ns + runtime_ns;
}

int deadline_init(struct deadline *d, int movers, uint64_t runtime_ns)
{
	pthread_condattr_t attr;
	d->runtime_ns = runtime_ns;
	d->running = movers;
	atomic_init(&d->passed, 0);
	if ((errno = pthread_mutex_init(&d->lock, NULL)) != 0)
		return -1;
	/* The deadline is on sys_now_ns()'s clock, so the wait must be too. */
	if ((errno = pthread_condattr_init(&attr)) != 0)
		goto fail;
	if ((errno = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)) != 0 ||
	    (errno = pthread_cond_init(&d->cond, &attr)) != 0) {
		pthread_condattr_destroy(&attr);
		goto fail;
	}
	pthread_condattr_destroy(&attr);
	return 0;
fail:
	pthread_mutex_destroy(&d->lock);
	return -1;
}

void deadline_release(struct deadline *d)
{
	pthread_cond_destroy(&d->cond);
	pthread_mutex_destroy(&d->lock);
}

int deadline_stops(struct deadline *d, uint64_t moved)
{
	return moved > 0 &&
	       atomic_load_explicit(&d->passed, memory_order_relaxed);
}

void deadline_done(struct deadline *d)
{
	pthread_mutex_lock(&d->lock);
	if (--d->running == 0)
		pthread_cond_signal(&d->cond);
	pthread_mutex_unlock(&d->lock);
}

int deadline_wait(struct deadline *d, uint64_t start_ns)
{
	uint64_t at = deadline_at(start_ns, d->runtime_ns);
	struct timespec ts = {
		.tv_sec = (time_t)(at / 1000000000u),
		.tv_nsec = (long)(at % 1000000000u),
	};
	int passed = 0;

	pthread_mutex_lock(&d->lock);
	while (d->running > 0 && !passed) {
		int rc = at ? pthread_cond_timedwait(&d->cond, &d->lock, &ts)
			    : pthread_cond_wait(&d->cond, &d->lock);
		/* A mover that finished as the time ran out counts as done. */
		passed = rc == ETIMEDOUT && d->running > 0;
	}
	pthread_mutex_unlock(&d->lock);
	if (passed)
		atomic_store(&d->passed, 1);
	return passed;
}
