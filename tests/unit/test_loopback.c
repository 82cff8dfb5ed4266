/* test_loopback.c - loopback.h: what goes in comes out, and a full
 * buffer does not block. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "loopback.h"

/* 8 MiB sent through the connection in 64 KiB messages all arrive; sending while nobody reads stops at the kernel's buffer (0, not
 * a block); closing the sender is an error for the reader. */
Test(loopback, what_is_sent_arrives_and_a_full_buffer_does_not_block)
{
	enum { SIZE = 64 * 1024, TOTAL = 8 * 1024 * 1024 };
	struct loopback lb;
	char err[256], *s = malloc(SIZE), *r = malloc(SIZE);
	long sent = 0, got = 0, k, full = 0;

	cr_assert(s && r);
	cr_assert_eq(loopback_open(&lb, err, sizeof(err)), 0, "%s", err);
	for (int i = 0; i < SIZE; i++)
		s[i] = (char)(i * 7);
	while (got < TOTAL) {
		if (sent < TOTAL) {
			k = loopback_send(&lb, s + sent % SIZE, (size_t)(SIZE - sent % SIZE));
			cr_assert_geq(k, 0);
			sent += k;
		}
		k = loopback_drain(&lb, r, SIZE);
		cr_assert_geq(k, 0);
		got += k;
	}
	cr_expect_eq(got, sent);
	cr_expect_eq(got, TOTAL);
	while ((k = loopback_send(&lb, s, SIZE)) > 0 && full < 1L << 30)
		full += k;
	cr_expect_eq(k, 0, "a full buffer: 0 bytes taken, after %ld", full);
	cr_expect_gt(full, 0);
	loopback_close(&lb);
	cr_expect_eq(lb.tx, -1);
	cr_expect_eq(lb.rx, -1);
	free(s);
	free(r);
}
