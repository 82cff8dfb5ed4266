/*
 * sfile.h - the one rule for files swstress reads or writes inside a
 * results folder, a site folder or beside a store, whose names someone
 * else may have planted. MPI-free.
 *
 *   - reading: opened with O_NOFOLLOW (a symlink is refused, never
 *     followed to its target) and O_NONBLOCK (a FIFO cannot hang the
 *     open), then fstat: only a regular file of at most the caller's
 *     size cap is read, and the cap holds while reading (a file that
 *     grows is refused, not read whole);
 *   - folders below the one the user named are entered with
 *     openat(O_DIRECTORY|O_NOFOLLOW) from its descriptor: a planted link
 *     to another folder is refused, not written through;
 *   - writing: a temporary file made exclusively in the same folder
 *     descriptor, flushed, fsync'ed and renamed into place, so an
 *     existing file is never truncated in place; a name that is a
 *     device, a FIFO, a folder or a file with other hard links is
 *     refused (a symlink at the name is replaced, its target untouched);
 *   - files swstress appends to or locks (plot.log, the check's lock)
 *     are opened without O_TRUNC and checked the same way before
 *     anything is cut;
 *   - paths are never cut: one that does not fit its buffer is an error.
 *
 * The folder the user names on the command line (and a config file) may
 * be reached through a link: that is the user's choice, not data.
 * Errors go into (err, errlen) as "PATH: what is wrong" (sw.h).
 */
#ifndef SFILE_H
#define SFILE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include "sw.h"

/* sfile_read flags */
#define SFILE_FOLLOW 1   /* a link at the last component is followed (a file the user named) */
#define SFILE_STREAM 2   /* a character device is read too, as a stream (-c /dev/null) */

/* printf into buf (len bytes with the NUL): 0, or -1 with "PATH...: path
 * is longer than N bytes" in err when it does not fit (never a prefix). */
int sfile_path(char *buf, size_t len, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The folder path (the user's: a link to a folder is followed) as a
 * descriptor (O_DIRECTORY), or -1 with err naming it. */
int sfile_dir(const char *path, char *err, size_t errlen);

/* Folder name under dirfd (O_NOFOLLOW: a link is refused), created 0755
 * first when create is true. A descriptor, or -1 with err naming shown
 * (the folder's path for messages). */
int sfile_subdir(int dirfd, const char *name, bool create, const char *shown, char *err, size_t errlen);

/* File name under dirfd for reading, as above (a regular file of at most
 * max bytes; shown is its path for messages). NULL with err set; errno
 * is ENOENT when the file does not exist. */
FILE *sfile_read_at(int dirfd, const char *name, long long max, const char *shown, char *err, size_t errlen);

/* The same for a path; flags SFILE_FOLLOW, SFILE_STREAM. With
 * SFILE_STREAM the caller enforces max while reading. */
FILE *sfile_read(const char *path, long long max, int flags, char *err, size_t errlen);

/* The whole of name under dirfd (a regular file of at most max bytes, no
 * NUL byte) as a new string, its length into *len (may be NULL). NULL
 * with err set; errno is ENOENT when the file does not exist. */
char *sfile_slurp_at(int dirfd, const char *name, long long max, size_t *len, const char *shown,
		     char *err, size_t errlen);

/* Write name under dirfd through fn: a fresh temporary ".NAME.XXXXXX.tmp"
 * in the same folder (O_CREAT|O_EXCL|O_NOFOLLOW, 0644), flushed and
 * fsync'ed, renamed over name; refused when name is there as anything but
 * a regular file with one link or a symlink. On error the temporary file
 * is removed and err names shown. 0 or -1. */
int sfile_write_at(int dirfd, const char *name, sw_write_fn fn, const void *arg, const char *shown,
		   char *err, size_t errlen);

/* sfile_write_at for a path (its folder is the user's). */
int sfile_write(const char *path, sw_write_fn fn, const void *arg, char *err, size_t errlen);

/* sfile_write_at for root/rel: root is the user's folder (created with
 * its parents when missing); every folder in rel is created when missing
 * and entered without following links. */
int sfile_write_under(const char *root, const char *rel, sw_write_fn fn, const void *arg, char *err,
		      size_t errlen);

/* A file swstress owns at path (a log, a lock), opened with flags
 * (O_WRONLY or O_RDWR, O_APPEND, O_TRUNC) plus O_CREAT|O_NOFOLLOW, 0644:
 * a link, a device, a FIFO or a file with other hard links is refused
 * before anything is truncated. A descriptor, or -1 with "PATH: cannot
 * write: why" in err (errno set). */
int sfile_open_own(const char *path, int flags, char *err, size_t errlen);

/* sfile_open_own as a stream: mode "w" (truncate) or "a" (append). */
FILE *sfile_fopen_own(const char *path, const char *mode, char *err, size_t errlen);

#endif
