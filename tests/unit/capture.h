/*
 * capture.h - the unit tests' capture of what a command prints: stdout
 * (and stderr too, when asked) go to a temporary file from capture_start
 * to capture_end, which restores them and hands back the text.
 */
#ifndef CAPTURE_H
#define CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

struct capture {
	char path[32];
	int fd, saved_out, saved_err;   /* saved_err -1: stderr not captured */
};

/* Send stdout (and stderr when with_stderr) to a new temporary file. 0, or
 * -1 (nothing redirected) when the file cannot be made. */
int capture_start(struct capture *c, bool with_stderr);

/* Restore stdout and stderr, put what was printed into out (NUL-terminated,
 * at most len - 1 bytes; out may be NULL to discard it) and remove the
 * file. */
void capture_end(struct capture *c, char *out, size_t len);

#endif
