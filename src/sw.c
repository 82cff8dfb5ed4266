/* sw.c - shared helpers declared in sw.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdbool.h>
#include "sw.h"

int sw_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* end points past the number: only blanks may follow it */
static bool number_end_ok(const char *s, const char *end)
{
	if (end == s)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	return *end == '\0';
}

int sw_parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || !number_end_ok(s, end) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int sw_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	unsigned long long v;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || !number_end_ok(s, end) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int sw_parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE && fabs(v) > 1)
		return -1;
	if (!number_end_ok(s, end) || !isfinite(v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int sw_path_plain(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	int n;

	for (const char *p = path; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return sw_fail(err, errlen, "%.*s: path holds a control character",
				       (int)(p - path), path);
	n = snprintf(buf, len, "%s%s", path[0] == '/' ? "" : "./", path);
	if (n < 0 || (size_t)n >= len)
		return sw_fail(err, errlen, "%s: path too long", path);
	return 0;
}

int sw_mkdir_p(const char *path)
{
	char tmp[SW_PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

int sw_temp_create(const char *path, char *tmp, size_t tmplen, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	int n, fd;

	if (slash)
		n = snprintf(tmp, tmplen, "%.*s/.%s.XXXXXX.tmp", (int)(slash - path), path, slash + 1);
	else
		n = snprintf(tmp, tmplen, ".%s.XXXXXX.tmp", path);
	if (n < 0 || (size_t)n >= tmplen)
		return sw_fail(err, errlen, "%s: path too long", path);
	fd = mkstemps(tmp, 4);
	if (fd < 0)
		return sw_fail(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	if (fchmod(fd, 0644)) {
		int e = errno;

		close(fd);
		unlink(tmp);
		return sw_fail(err, errlen, "%s: cannot write: %s", path, strerror(e));
	}
	return fd;
}

int sw_write_fd(int fd, sw_write_fn fn, const void *arg, const char *shown, char *err, size_t errlen)
{
	FILE *f = fdopen(fd, "w");
	int rc, e;

	if (!f) {
		e = errno;
		close(fd);
		return sw_fail(err, errlen, "%s: cannot write: %s", shown, strerror(e));
	}
	errno = 0;
	rc = fn(f, arg);
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		rc = -1;
	e = errno;
	if (fclose(f) && !rc) {
		rc = -1;
		e = errno;
	}
	if (rc)
		return sw_fail(err, errlen, "%s: write failed: %s", shown, strerror(e ? e : EIO));
	return 0;
}

int sw_write_temp(const char *path, sw_write_fn fn, const void *arg, char *tmp, size_t tmplen,
		  char *err, size_t errlen)
{
	int fd = sw_temp_create(path, tmp, tmplen, err, errlen);

	if (fd < 0)
		return -1;
	if (sw_write_fd(fd, fn, arg, path, err, errlen)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

int sw_commit_temp(const char *tmp, const char *path, char *err, size_t errlen)
{
	if (rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		return sw_fail(err, errlen, "%s: cannot rename into place: %s", path, strerror(e));
	}
	return 0;
}

FILE *sw_fopen_nofollow(const char *path, const char *mode)
{
	int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (mode[0] == 'a' ? O_APPEND : O_TRUNC);
	int fd = open(path, flags, 0644);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f)
		close(fd);
	return f;
}

int sw_write_atomic(const char *path, sw_write_fn fn, const void *arg, char *err, size_t errlen)
{
	char tmp[SW_PATH_MAX + 64];

	if (sw_write_temp(path, fn, arg, tmp, sizeof(tmp), err, errlen))
		return -1;
	return sw_commit_temp(tmp, path, err, errlen);
}

void sw_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

void sw_vnote(char *notes, size_t width, int max, int *n, const char *fmt, va_list ap)
{
	if (*n < max)
		vsnprintf(notes + (size_t)(*n)++ * width, width, fmt, ap);
}

void sw_note(char *notes, size_t width, int max, int *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sw_vnote(notes, width, max, n, fmt, ap);
	va_end(ap);
}

/* Split line in place at commas; trims blanks and \r\n. Returns fields. */
int sw_csv_split(char *line, char **field, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *end = strchr(p, ',');

		if (end)
			*end = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		size_t len = strlen(p);
		while (len && (p[len - 1] == '\n' || p[len - 1] == '\r' ||
			       p[len - 1] == ' ' || p[len - 1] == '\t'))
			p[--len] = '\0';
		if (n < max)
			field[n] = p;
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	return n;
}

int sw_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

double sw_iso_epoch(const char *s)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!s || !strptime(s, "%Y-%m-%dT%H:%M:%S", &tm))
		return NAN;
	return (double)timegm(&tm);
}
