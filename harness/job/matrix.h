/*
 * matrix.h: the combinations of several lists, as a job expands them:
 * layer keys given as lists make topologies, workload keys given as lists
 * make points. Combination n picks one value per list; the first list
 * varies slowest, so the order reads like nested loops in file order.
 */
#ifndef IOBISECT_MATRIX_H
#define IOBISECT_MATRIX_H

#include <stddef.h>

#define MATRIX_MAX_LISTS 64

struct matrix {
	size_t nr;
	size_t len[MATRIX_MAX_LISTS]; /* values in each list, at least 1 */
};

/* Add a list of `len` values; -1 when the matrix holds MATRIX_MAX_LISTS. */
int matrix_add(struct matrix *m, size_t len);
/* The number of combinations, or cap + 1 once it passes `cap`. */
size_t matrix_total(const struct matrix *m, size_t cap);
/* pick[k]: which value of list k combination `n` takes. */
void matrix_pick(const struct matrix *m, size_t n, size_t *pick);

#endif
