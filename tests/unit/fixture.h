/*
 * fixture.h - the unit tests' temporary folders, all named
 * /tmp/swstress-NAME-XXXXXX: one fresh for each test of a suite that
 * declares
 *
 *     TestSuite(results, .init = fixture_setup, .fini = fixture_teardown);
 *
 * (the folder in fixture_dir, NAME the suite's name), and any number more
 * that a test makes and removes itself (fixture_mkdtemp, fixture_rmtree).
 * T_KEEP=1 in the environment keeps them all, each path said on stderr, as
 * it keeps the shell suites' (tests/lib.sh).
 */
#ifndef FIXTURE_H
#define FIXTURE_H

#include <stddef.h>

#define FIXTURE_DIR_MAX 64

/* The folder of the running test (fixture_setup). */
extern char fixture_dir[FIXTURE_DIR_MAX];

/* Criterion .init: a fresh fixture_dir named for the suite; fails the
 * test when it cannot be made. */
void fixture_setup(void);

/* Criterion .fini: fixture_dir and everything in it removed; fails the
 * test when something could not be. */
void fixture_teardown(void);

/* A fresh folder /tmp/swstress-NAME-XXXXXX into dir (len bytes, at most
 * FIXTURE_DIR_MAX needed); fails the test when it cannot be made. */
void fixture_mkdtemp(char *dir, size_t len, const char *name);

/* Remove dir and everything below it, links removed and never followed;
 * only a folder of fixture_mkdtemp (anything else is left alone). 0, or -1
 * when something could not be removed (said on stderr). */
int fixture_rmtree(const char *dir);

#endif
