/* sw.c - shared helpers declared in sw.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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

int sw_write_temp(const char *path, sw_write_fn fn, const void *arg, char *tmp, size_t tmplen,
		  char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	FILE *f;
	int rc, e;

	if (slash)
		snprintf(tmp, tmplen, "%.*s/.%s.%ld.tmp", (int)(slash - path), path, slash + 1, (long)getpid());
	else
		snprintf(tmp, tmplen, ".%s.%ld.tmp", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return sw_fail(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	errno = 0;
	rc = fn(f, arg);
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		rc = -1;
	e = errno;
	if (fclose(f) && !rc) {
		rc = -1;
		e = errno;
	}
	if (rc) {
		unlink(tmp);
		return sw_fail(err, errlen, "%s: write failed: %s", path, strerror(e ? e : EIO));
	}
	return 0;
}

int sw_commit_temp(const char *tmp, const char *path, char *err, size_t errlen)
{
	if (chmod(tmp, 0644) || rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		return sw_fail(err, errlen, "%s: cannot rename into place: %s", path, strerror(e));
	}
	return 0;
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
