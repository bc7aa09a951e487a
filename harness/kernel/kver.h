/*
 * kver.h: kernel versions as one comparable number, for the fragments and
 * toolchains a job gives per range of versions ("min": "2.6", "max": "3.2").
 */
#ifndef IOBISECT_KVER_H
#define IOBISECT_KVER_H

/* A kernel version as MAJOR.MINOR.SUBLEVEL packed for comparison. */
#define KVER(a, b, c) (((a) << 16) | ((b) << 8) | ((c) > 255 ? 255 : (c)))

/* A version range, inclusive; 0 means open on that side. */
struct kver_range {
	unsigned min, max;
};

/* Parse "6.1", "2.6.38.8", "v6.1-rc3" into KVER form; 0 when unparsable. */
unsigned kver_parse(const char *s);
/* A range's "max": "3.2" covers every 3.2.x, so it means 3.2.255. */
unsigned kver_parse_max(const char *s);
int kver_in_range(unsigned v, const struct kver_range *r);

#endif
