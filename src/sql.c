/* sql.c - see sql.h. */
#include <math.h>
#include <stdio.h>
#include "sql.h"

struct sql_val sql_null(void)
{
	return (struct sql_val){ .kind = SQL_NULL };
}

struct sql_val sql_int(sqlite3_int64 i)
{
	return (struct sql_val){ .kind = SQL_INT, .i = i };
}

struct sql_val sql_num(double x)
{
	return (struct sql_val){ .kind = SQL_NUM, .x = x };
}

struct sql_val sql_text(const char *s)
{
	return (struct sql_val){ .kind = SQL_TEXT, .s = s };
}

int sql_fail(sqlite3 *db, const char *file, char *err, size_t errlen)
{
	return sw_fail(err, errlen, "%s: %s", file, db ? sqlite3_errmsg(db) : "out of memory");
}

int sql_exec(sqlite3 *db, const char *file, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	sw_fail(err, errlen, "%s: %s", file, msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

/* v into the parameter ?i or $i of st; SQLITE_OK when st has neither. */
static int bind(sqlite3_stmt *st, int i, const struct sql_val *v)
{
	char name[16];
	int idx;

	snprintf(name, sizeof(name), "?%d", i);
	idx = sqlite3_bind_parameter_index(st, name);
	if (!idx) {
		name[0] = '$';
		idx = sqlite3_bind_parameter_index(st, name);
	}
	if (!idx)
		return SQLITE_OK;
	if (v->kind == SQL_INT)
		return sqlite3_bind_int64(st, idx, v->i);
	if (v->kind == SQL_NUM && isfinite(v->x))
		return sqlite3_bind_double(st, idx, v->x);
	if (v->kind == SQL_TEXT && v->s)
		return sqlite3_bind_text(st, idx, v->s, -1, SQLITE_TRANSIENT);
	return sqlite3_bind_null(st, idx);
}

int sql_run(sqlite3 *db, const char *file, const char *sql, const struct sql_val *v, int n,
	    sql_row_fn fn, void *arg, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int s = sqlite3_prepare_v2(db, sql, -1, &st, NULL), rc = -1;

	for (int i = 0; i < n && s == SQLITE_OK; i++)
		s = bind(st, i + 1, &v[i]);
	if (s != SQLITE_OK)
		goto out_fail;
	while ((s = sqlite3_step(st)) == SQLITE_ROW)
		if (fn && fn(st, arg)) {
			sw_fail(err, errlen, "%s: out of memory", file);
			goto out;
		}
	if (s != SQLITE_DONE)
		goto out_fail;
	rc = 0;
	goto out;
out_fail:
	sql_fail(db, file, err, errlen);
out:
	sqlite3_finalize(st);
	return rc;
}
