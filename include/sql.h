/*
 * sql.h - one SQLite statement in one call: prepared, its parameters
 * bound, stepped to its end (each row through the caller's function) and
 * finalized, with one error path: "FILE: what SQLite said" in (err,
 * errlen) (sw.h), FILE the database the caller names. The history
 * (history.c) and the catalog store's SQLite side (store.c) use it.
 * Values are always bound, never written into SQL text. MPI-free.
 */
#ifndef SQL_H
#define SQL_H

#include <stddef.h>
#include <sqlite3.h>
#include "sw.h"

/* A value for one parameter. */
enum sql_kind { SQL_NULL, SQL_INT, SQL_NUM, SQL_TEXT };

struct sql_val {
	enum sql_kind kind;
	sqlite3_int64 i;     /* SQL_INT */
	double x;            /* SQL_NUM */
	const char *s;       /* SQL_TEXT, copied when bound */
};

/* The four kinds of value. */
struct sql_val sql_null(void);
struct sql_val sql_int(sqlite3_int64 i);
struct sql_val sql_num(double x);         /* NULL when x is not finite */
struct sql_val sql_text(const char *s);   /* NULL when s is NULL */

/* The values of one statement as sql_run's (v, n):
 * sql_run(db, file, sql, SQL_VALS(sql_text(name), sql_int(id)), ...). */
#define SQL_VALS(...) \
	(const struct sql_val[]){ __VA_ARGS__ }, \
	(int)(sizeof((struct sql_val[]){ __VA_ARGS__ }) / sizeof(struct sql_val))

/* One row of a statement (read it with sqlite3_column_*): 0 goes on, -1
 * stops the statement when the function ran out of memory. */
typedef int (*sql_row_fn)(sqlite3_stmt *st, void *arg);

/* Prepare sql on db, bind v[i] to its parameter ?i+1 or $i+1 (one the
 * statement does not have is skipped), step it to its end with every row
 * through fn (when not NULL), finalize. 0, or -1 with "FILE: reason" in
 * err ("FILE: out of memory" when fn stopped it). */
int sql_run(sqlite3 *db, const char *file, const char *sql, const struct sql_val *v, int n,
	    sql_row_fn fn, void *arg, char *err, size_t errlen);

/* Run sql, one or more statements without parameters or rows (a
 * migration, a pragma, BEGIN). 0, or -1 with "FILE: reason" in err. */
int sql_exec(sqlite3 *db, const char *file, const char *sql, char *err, size_t errlen);

/* "FILE: db's last message" ("FILE: out of memory" when db is NULL) into
 * err; returns -1. */
int sql_fail(sqlite3 *db, const char *file, char *err, size_t errlen);

#endif
