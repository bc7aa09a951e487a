/*
 * kver.c: kernel version strings as numbers (see kver.h).
 */
#include "kver.h"

#include <ctype.h>
#include <stdlib.h>

unsigned kver_parse(const char *s)
{
	unsigned v[3] = {0, 0, 0};
	int n = 0;
	if (!s)
		return 0;
	if (*s == 'v')
		s++;
	while (n < 3 && isdigit((unsigned char)*s)) {
		unsigned long x = strtoul(s, (char **)&s, 10);
		if (x > 255)
			return 0;
		v[n++] = (unsigned)x;
		if (n == 3 || *s != '.' || !isdigit((unsigned char)s[1]))
			break;
		s++;
	}
	if (n < 2 || (*s && isdigit((unsigned char)*s)))
		return 0;
	/* Whatever follows (".8", "-rc3", "+") does not change the order. */
	if (*s && *s != '.' && *s != '-' && *s != '+' && *s != '_')
		return 0;
	return KVER(v[0], v[1], v[2]);
}

int kver_in_range(unsigned v, const struct kver_range *r)
{
	return (!r->min || v >= r->min) && (!r->max || v <= r->max);
}

unsigned kver_parse_max(const char *s)
{
	unsigned v = kver_parse(s);
	const char *p = s + (*s == 'v');
	int dots = 0;
	for (; *p && (isdigit((unsigned char)*p) || *p == '.'); p++)
		dots += *p == '.';
	if (v && dots < 2)
		v |= 255;
	return v;
}
