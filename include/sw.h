/*
 * sw.h - things every swstress module shares: version, exit statuses,
 * fixed limits and the error-buffer convention.
 *
 * Error convention: a function that can fail takes (char *err, size_t errlen)
 * and writes one line without the "swstress: " prefix and without a trailing
 * newline, e.g. "configs/quick.conf:12: unknown key 'msgsz' (did you mean
 * 'sizes'?)". The caller prefixes "swstress: " and prints it once.
 * Actions return 0 or a negative value; constructors return NULL on failure.
 */
#ifndef SW_H
#define SW_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SW_VERSION "0.1.0"
/* run.json's schema. 2: a cell summary's latency_s, bandwidth_Bps and
 * aggregate_Bps are over per-repetition values (latency_samples_s and
 * bandwidth_samples_Bps describe single samples), changes are positive =
 * worse with the two medians they come from. Version 1 folders still
 * load: report, compare and check recompute everything from samples.csv.
 * 4: samples.csv's missing column (run.h: a sample without a usable time
 * window, its reason and no value); older folders load without it. */
#define SW_SCHEMA_VERSION 4

/* Exit statuses of every command but check/judge (which use Nagios codes). */
enum sw_exit {
	SW_EXIT_OK = 0,      /* success */
	SW_EXIT_FAIL = 1,    /* measurement failed: watchdog, MPI error, I/O */
	SW_EXIT_USAGE = 2,   /* bad command line or config */
};

/* Nagios plugin statuses, used by check and judge. */
enum sw_nagios {
	SW_NAGIOS_OK = 0,
	SW_NAGIOS_WARNING = 1,
	SW_NAGIOS_CRITICAL = 2,
	SW_NAGIOS_UNKNOWN = 3,
};

#define SW_MAX_LIST 64     /* entries in a list-valued key (sizes, hops, levels) */
#define SW_MAX_PATTERNS 8  /* patterns in one sweep */
#define SW_HOST_MAX 64     /* bytes of a host name, with the NUL */
#define SW_PATH_MAX 512
#define SW_MAX_RANKS 65536 /* ranks of one run (plan -n, run.json) */
#define SW_MAX_WINDOW 1024 /* messages in flight per window (config key window) */

/* qsort comparison of two ints, ascending. */
int sw_cmp_int(const void *a, const void *b);

/* Seconds since the epoch of an ISO 8601 UTC time (YYYY-mm-ddTHH:MM:SS,
 * as run.json's started); NAN when s is NULL, empty or not such a time. */
double sw_iso_epoch(const char *s);

/* snprintf into err if err is not NULL; returns -1 so callers can
 * "return sw_fail(err, errlen, ...)". */
int sw_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append printf output to the string in buf (len bytes in all); output
 * that does not fit is cut. */
void sw_appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Add a note (printf output) to a list of notes: notes[0..max), width
 * bytes each, *n of them in use. A note beyond max is dropped, a longer
 * one cut. SW_NOTE(array, count, fmt, ...) passes a char[max][width]
 * array's own sizes. */
void sw_note(char *notes, size_t width, int max, int *n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void sw_vnote(char *notes, size_t width, int max, int *n, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
#define SW_NOTE(notes, n, ...) \
	sw_note((notes)[0], sizeof((notes)[0]), (int)(sizeof(notes) / sizeof((notes)[0])), &(n), __VA_ARGS__)

/* Split a CSV line in place at commas (no quoting: swstress's fields hold
 * none), trimming blanks and the line end. field gets at most max fields;
 * returns how many the line has (which may be more than max). */
int sw_csv_split(char *line, char **field, int max);

/* The whole of s (blanks around it allowed) as a decimal integer within
 * [lo, hi] into *out. 0, or -1 when s is empty, not a number, has text
 * after the number, or is out of range (*out untouched). No sign is
 * accepted by sw_parse_u64, so "-1" never wraps. */
int sw_parse_long(const char *s, long lo, long hi, long *out);
int sw_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

/* The whole of s as a finite double within [lo, hi]; 0 or -1 as above. */
int sw_parse_double(const char *s, double lo, double hi, double *out);

/* path as it may reach gnuplot, into buf: gnuplot runs a file name that
 * starts with '<' (input) or '|' (output) through the shell and gives '-',
 * '+' and '$NAME' meanings of their own, so a relative path gets a "./"
 * prefix (an absolute one starts with '/'): then every name is a plain
 * file. Refuses (-1, err names path) a path with a control character or
 * one too long for buf. 0 or -1. */
int sw_path_plain(const char *path, char *buf, size_t len, char *err, size_t errlen);

/* Writes the contents of a file to f; 0, or -1 on error. */
typedef int (*sw_write_fn)(FILE *f, const void *arg);

/* Create path and its missing parents (mode 0755). 0 or -1 (errno set). */
int sw_mkdir_p(const char *path);

/* Create an empty temporary file beside path, exclusively: a fresh name
 * ".NAME.XXXXXX.tmp" (mkstemps: O_CREAT|O_EXCL, so never through a planted
 * symlink; a dot file, so no reader that globs *.csv or *.prom picks it
 * up), made 0644 on the descriptor. Its name goes into tmp. Returns the
 * open descriptor, or -1 with err naming path. */
int sw_temp_create(const char *path, char *tmp, size_t tmplen, char *err, size_t errlen);

/* Write path through fn atomically: a temporary file from sw_temp_create,
 * flushed and fsync'ed, then renamed over path. On any error the
 * temporary file is removed and err names path. 0 or -1. */
int sw_write_atomic(const char *path, sw_write_fn fn, const void *arg, char *err, size_t errlen);

/* Write fd (an open, empty temporary file) through fn, then flush, fsync
 * and close it; fd is closed whatever happens. On error err names shown
 * ("cannot write" or "write failed"); removing the file is the caller's.
 * 0 or -1. */
int sw_write_fd(int fd, sw_write_fn fn, const void *arg, const char *shown, char *err, size_t errlen);

/* The two halves of sw_write_atomic, for writing several files that must
 * change together (or a file another program writes, such as a chart):
 * write every temporary file first (its name into tmp), then commit them
 * all. A failed half removes its temporary file. */
int sw_write_temp(const char *path, sw_write_fn fn, const void *arg, char *tmp, size_t tmplen,
		  char *err, size_t errlen);
int sw_commit_temp(const char *tmp, const char *path, char *err, size_t errlen);

/* fopen for a file that must not be reached through a symlink (O_NOFOLLOW):
 * mode "w" (truncate) or "a" (append); created 0644. NULL with errno set. */
FILE *sw_fopen_nofollow(const char *path, const char *mode);

#endif
