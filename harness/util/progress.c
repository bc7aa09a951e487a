/*
 * progress.c: the bisection's progress on stderr (see progress.h). The
 * terminal line is redrawn with "\r" and cleared with "\r\033[K"; nothing
 * is written for samples or phases when stderr is not a terminal, so logs
 * stay readable.
 */
#include "progress.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void progress_init(struct progress *p, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->tty = out && isatty(fileno(out));
	p->start_ns = p->step_start_ns = now_ns();
}

void progress_release(struct progress *p)
{
	progress_clear(p);
	free(p->subject);
	free(p->phase);
	p->subject = p->phase = NULL;
}

void progress_format(const struct progress *p, uint64_t now_ns,
		     struct strbuf *out)
{
	double elapsed = (now_ns - p->start_ns) / 1e9;
	char spent[32], left[32];

	if (p->steps)
		strbuf_addf(out, "step %d/%d ", p->step, p->steps);
	if (p->commit[0])
		strbuf_addf(out, "%s", p->commit);
	if (p->subject && *p->subject)
		strbuf_addf(out, " %.40s", p->subject);
	if (p->phase && *p->phase)
		strbuf_addf(out, " | %s", p->phase);
	for (int i = 1; i < PROGRESS_LANES; i++)
		if (p->lane[i][0]) {
			format_duration(spent, sizeof(spent),
					(now_ns - p->lane_start_ns[i]) / 1e9);
			strbuf_addf(out, " | build %s %s", p->lane[i], spent);
		}
	strbuf_addf(out, " | %zu samples", p->samples);
	format_duration(spent, sizeof(spent), elapsed);
	strbuf_addf(out, " | %s", spent);
	/* The time left: the mean step so far times the steps to come. */
	if (p->steps && p->steps_done && p->step <= p->steps) {
		double per = p->step_seconds / p->steps_done;
		double in_step = (now_ns - p->step_start_ns) / 1e9;
		double rest = per * (p->steps - p->step + 1) - in_step;
		format_duration(left, sizeof(left), rest > 0 ? rest : 0);
		strbuf_addf(out, ", ~%s left", left);
	}
}

static void redraw(struct progress *p)
{
	struct strbuf sb = STRBUF_INIT;

	if (!p->tty)
		return;
	progress_format(p, now_ns(), &sb);
	fprintf(p->out, "\r\033[K%s", sb.buf);
	fflush(p->out);
	p->line_shown = 1;
	strbuf_release(&sb);
}

void progress_clear(struct progress *p)
{
	if (p->tty && p->line_shown) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
	}
	p->line_shown = 0;
}

void progress_commit(struct progress *p, const char *label, int step,
		     int steps, const char *commit, const char *subject)
{
	p->step = step;
	p->steps = steps;
	snprintf(p->commit, sizeof(p->commit), "%.12s", commit ? commit : "");
	free(p->subject);
	p->subject = xstrdup(subject ? subject : "");
	free(p->phase);
	p->phase = NULL;
	p->step_start_ns = now_ns();
	if (p->tty) {
		redraw(p);
		return;
	}
	if (!strcmp(label, "step"))
		fprintf(p->out, "[bisect] step %d/%d testing %.12s %s\n", step,
			steps, p->commit, p->subject);
	else
		fprintf(p->out, "[bisect] %s: testing %.12s %s\n", label,
			p->commit, p->subject);
	fflush(p->out);
}

void progress_phase(struct progress *p, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(p->phase);
	p->phase = strbuf_detach(&sb);
	redraw(p);
}

/* A background lane's build ended: built, or stopped as not needed. */
static void lane_ended(struct progress *p, unsigned slot, int stopped)
{
	char took[32];

	format_duration(took, sizeof(took),
			(now_ns() - p->lane_start_ns[slot]) / 1e9);
	if (stopped)
		fprintf(p->out, "[build] %s: stopped after %s, not needed\n",
			p->lane[slot], took);
	else
		fprintf(p->out, "[build] %s: built beside in %s\n",
			p->lane[slot], took);
}

static void lane_changed(struct progress *p, unsigned slot,
			 const char *commit, int stopped)
{
	if (slot >= PROGRESS_LANES)
		return;
	if (slot && !p->tty) {
		if (commit)
			fprintf(p->out, "[build] %.12s: building beside\n",
				commit);
		else
			lane_ended(p, slot, stopped);
		fflush(p->out);
	}
	snprintf(p->lane[slot], sizeof(p->lane[slot]), "%.12s",
		 commit ? commit : "");
	if (commit)
		p->lane_start_ns[slot] = now_ns();
	redraw(p);
}

void progress_lane(struct progress *p, unsigned slot, const char *commit)
{
	lane_changed(p, slot, commit, 0);
}

void progress_lane_stopped(struct progress *p, unsigned slot)
{
	lane_changed(p, slot, NULL, 1);
}

void progress_add_samples(struct progress *p, size_t n)
{
	p->samples += n;
	redraw(p);
}

void progress_commit_done(struct progress *p)
{
	/* Only bisection steps predict the steps to come. */
	if (p->steps) {
		p->step_seconds += (now_ns() - p->step_start_ns) / 1e9;
		p->steps_done++;
	}
}

void progress_note(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	progress_clear(p);
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
	fputc('\n', p->out);
	fflush(p->out);
	redraw(p);
}
