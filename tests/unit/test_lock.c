/*
 * test_lock.c - the check's lock file (judge_lock) is a file swstress
 * owns: a hard link or a FIFO planted at HISTORY.lock is refused before
 * anything is truncated or written (issue #32).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fixture.h"
#include "judge.h"

TestSuite(lock, .init = fixture_setup, .fini = fixture_teardown);

Test(lock, refuses_a_planted_hard_link_or_fifo)
{
	char db[128], lock[160], victim[128], err[512], buf[32] = "";
	FILE *f;
	int fd = 7;

	snprintf(db, sizeof(db), "%s/history.sqlite", fixture_dir);
	snprintf(lock, sizeof(lock), "%s.lock", db);
	snprintf(victim, sizeof(victim), "%s/victim", fixture_dir);
	f = fopen(victim, "w");
	cr_assert(f);
	fputs("precious\n", f);
	fclose(f);
	cr_assert_eq(link(victim, lock), 0);
	cr_expect_eq(judge_lock(db, &fd, err, sizeof(err)), -1);
	cr_expect_eq(fd, -1);
	cr_expect(strstr(err, "history.sqlite.lock: cannot write: the file has other hard links"), "%s", err);
	f = fopen(victim, "r");
	cr_assert(f);
	cr_expect(fgets(buf, sizeof(buf), f) && !strcmp(buf, "precious\n"), "the other file changed: '%s'", buf);
	fclose(f);
	unlink(lock);
	cr_assert_eq(mkfifo(lock, 0644), 0);
	cr_expect_eq(judge_lock(db, &fd, err, sizeof(err)), -1);   /* no hang */
	cr_expect(strstr(err, "cannot write: not a regular file"), "%s", err);
	unlink(lock);
	cr_expect_eq(judge_lock(db, &fd, err, sizeof(err)), 0, "%s", err);
	judge_unlock(fd);
}
