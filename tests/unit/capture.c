/* capture.c - see capture.h. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "capture.h"

int capture_start(struct capture *c, bool with_stderr)
{
	snprintf(c->path, sizeof(c->path), "/tmp/swcaptureXXXXXX");
	c->fd = mkstemp(c->path);
	if (c->fd < 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	c->saved_out = dup(1);
	c->saved_err = with_stderr ? dup(2) : -1;
	dup2(c->fd, 1);
	if (with_stderr)
		dup2(c->fd, 2);
	return 0;
}

void capture_end(struct capture *c, char *out, size_t len)
{
	ssize_t n = 0;

	fflush(stdout);
	fflush(stderr);
	dup2(c->saved_out, 1);
	close(c->saved_out);
	if (c->saved_err >= 0) {
		dup2(c->saved_err, 2);
		close(c->saved_err);
	}
	if (out && len) {
		lseek(c->fd, 0, SEEK_SET);
		n = read(c->fd, out, len - 1);
		out[n > 0 ? n : 0] = '\0';
	}
	close(c->fd);
	unlink(c->path);
}
