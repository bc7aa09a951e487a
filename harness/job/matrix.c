/*
 * matrix.c: combinations of lists (see matrix.h).
 */
#include "matrix.h"

int matrix_add(struct matrix *m, size_t len)
{
	if (m->nr == MATRIX_MAX_LISTS)
		return -1;
	m->len[m->nr++] = len ? len : 1;
	return 0;
}

size_t matrix_total(const struct matrix *m, size_t cap)
{
	size_t total = 1;
	for (size_t k = 0; k < m->nr; k++) {
		/* Compared by division: 64 lists of 64 overflow a product. */
		if (m->len[k] > cap / total)
			return cap + 1;
		total *= m->len[k];
	}
	return total;
}

void matrix_pick(const struct matrix *m, size_t n, size_t *pick)
{
	for (size_t k = m->nr; k-- > 0;) {
		pick[k] = n % m->len[k];
		n /= m->len[k];
	}
}
