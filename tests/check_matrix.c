/*
 * check_matrix.c: combinations of lists (matrix.c): the first list varies
 * slowest, every combination comes once, and the count stops at its cap
 * instead of overflowing.
 */
#include "matrix.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>

START_TEST(first_list_varies_slowest)
{
	struct matrix m = {0};
	size_t pick[MATRIX_MAX_LISTS];

	ck_assert_int_eq(matrix_add(&m, 2), 0);
	ck_assert_int_eq(matrix_add(&m, 1), 0);
	ck_assert_int_eq(matrix_add(&m, 3), 0);
	ck_assert_uint_eq(matrix_total(&m, 100), 6);
	/* Like for (a < 2) for (b < 1) for (c < 3). */
	for (size_t n = 0; n < 6; n++) {
		matrix_pick(&m, n, pick);
		ck_assert_uint_eq(pick[0], n / 3);
		ck_assert_uint_eq(pick[1], 0);
		ck_assert_uint_eq(pick[2], n % 3);
	}
}
END_TEST

START_TEST(no_lists_is_one_combination)
{
	struct matrix m = {0};
	ck_assert_uint_eq(matrix_total(&m, 10), 1);
}
END_TEST

START_TEST(total_stops_past_the_cap)
{
	struct matrix m = {0};

	for (int i = 0; i < MATRIX_MAX_LISTS; i++)
		ck_assert_int_eq(matrix_add(&m, 1000), 0);
	ck_assert_int_eq(matrix_add(&m, 2), -1);
	/* 1000^64 overflows size_t: the count must not wrap below the cap. */
	ck_assert_uint_eq(matrix_total(&m, 4096), 4097);
	ck_assert_uint_eq(matrix_total(&m, SIZE_MAX / 2), SIZE_MAX / 2 + 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("matrix");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, first_list_varies_slowest);
	tcase_add_test(tc, no_lists_is_one_combination);
	tcase_add_test(tc, total_stops_past_the_cap);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
