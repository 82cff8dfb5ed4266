/* sfile.c - files under folders whose names are data; see sfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sfile.h"

int sfile_path(char *buf, size_t len, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		return sw_fail(err, errlen, "%.60s...: path is longer than %zu bytes", buf, len - 1);
	return 0;
}

int sfile_dir(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return sw_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	return fd;
}

int sfile_subdir(int dirfd, const char *name, bool create, const char *shown, char *err, size_t errlen)
{
	struct stat st;
	int fd, e;

	if (create && mkdirat(dirfd, name, 0755) && errno != EEXIST)
		return sw_fail(err, errlen, "%s: cannot create: %s", shown, strerror(errno));
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	e = errno;
	if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
		return sw_fail(err, errlen, "%s: a symbolic link, not a folder: refused", shown);
	return sw_fail(err, errlen, "%s: cannot open: %s", shown, strerror(e));
}

/* name under dirfd opened for reading if it is a regular file of at most
 * max bytes (or, with SFILE_STREAM, a character device); -1 with err
 * and errno set. */
static int open_read(int dirfd, const char *name, long long max, int flags, const char *shown,
		     char *err, size_t errlen)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (flags & SFILE_FOLLOW ? 0 : O_NOFOLLOW));
	struct stat st;
	int e;

	if (fd < 0) {
		e = errno;
		if (e == ELOOP && !(flags & SFILE_FOLLOW))
			sw_fail(err, errlen, "%s: cannot read: not a regular file (a symbolic link)", shown);
		else
			sw_fail(err, errlen, "%s: cannot read: %s", shown, strerror(e));
		errno = e;
		return -1;
	}
	if (fstat(fd, &st)) {
		e = errno;
		sw_fail(err, errlen, "%s: cannot read: %s", shown, strerror(e));
		goto out_close;
	}
	e = EINVAL;
	if (S_ISDIR(st.st_mode))
		sw_fail(err, errlen, "%s: cannot read: %s", shown, strerror(EISDIR));
	else if (S_ISCHR(st.st_mode) && (flags & SFILE_STREAM))
		e = 0;
	else if (!S_ISREG(st.st_mode))
		sw_fail(err, errlen, "%s: cannot read: not a regular file", shown);
	else if (st.st_size > max)
		sw_fail(err, errlen, "%s: %lld bytes, more than the %lld such a file may have", shown,
			(long long)st.st_size, max);
	else
		e = 0;
	if (e)
		goto out_close;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
out_close:
	close(fd);
	errno = e;
	return -1;
}

static FILE *fdopen_read(int fd, const char *shown, char *err, size_t errlen)
{
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		sw_fail(err, errlen, "%s: cannot read: %s", shown, strerror(errno));
		close(fd);
	}
	return f;
}

FILE *sfile_read_at(int dirfd, const char *name, long long max, const char *shown, char *err, size_t errlen)
{
	return fdopen_read(open_read(dirfd, name, max, 0, shown, err, errlen), shown, err, errlen);
}

FILE *sfile_read(const char *path, long long max, int flags, char *err, size_t errlen)
{
	return fdopen_read(open_read(AT_FDCWD, path, max, flags, path, err, errlen), path, err, errlen);
}

char *sfile_slurp_at(int dirfd, const char *name, long long max, size_t *len, const char *shown,
		     char *err, size_t errlen)
{
	int fd = open_read(dirfd, name, max, 0, shown, err, errlen), e = 0;
	size_t n = 0, cap = 0;
	char *buf = NULL;
	ssize_t got;

	if (fd < 0)
		return NULL;
	do {
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!nb) {
				e = ENOMEM;
				sw_fail(err, errlen, "%s: cannot read: out of memory", shown);
				goto out_free;
			}
			buf = nb;
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			e = errno;
			sw_fail(err, errlen, "%s: cannot read: %s", shown, strerror(e));
			goto out_free;
		}
		n += (size_t)got;
		if ((long long)n > max) {   /* it grew after fstat */
			e = EFBIG;
			sw_fail(err, errlen, "%s: more than the %lld bytes such a file may have", shown, max);
			goto out_free;
		}
	} while (got > 0);
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		e = EINVAL;
		sw_fail(err, errlen, "%s: not a text file (a NUL byte)", shown);
		goto out_free;
	}
	close(fd);
	if (len)
		*len = n;
	return buf;
out_free:
	free(buf);
	close(fd);
	errno = e;
	return NULL;
}

/* A fresh ".NAME.XXXXXX.tmp" under dirfd, created exclusively; its name
 * into tmp. A descriptor, or -1 with err naming shown. */
static int temp_at(int dirfd, const char *name, char *tmp, size_t len, const char *shown, char *err,
		   size_t errlen)
{
	static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	if ((size_t)snprintf(tmp, len, ".%s.XXXXXX.tmp", name) >= len)
		return sw_fail(err, errlen, "%s: name too long", shown);
	for (int tries = 0; tries < 100; tries++) {
		char *x = tmp + 1 + strlen(name) + 1;
		unsigned char r[6];
		int fd;

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return sw_fail(err, errlen, "%s: cannot write: no random name: %s", shown, strerror(errno));
		for (int i = 0; i < 6; i++)
			x[i] = letters[r[i] % (sizeof(letters) - 1)];
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 && fchmod(fd, 0644) == 0)
			return fd;
		if (fd >= 0) {
			int e = errno;

			close(fd);
			unlinkat(dirfd, tmp, 0);
			return sw_fail(err, errlen, "%s: cannot write: %s", shown, strerror(e));
		}
		if (errno != EEXIST)
			return sw_fail(err, errlen, "%s: cannot write: %s", shown, strerror(errno));
	}
	return sw_fail(err, errlen, "%s: cannot write: no free temporary name", shown);
}

int sfile_write_at(int dirfd, const char *name, sw_write_fn fn, const void *arg, const char *shown,
		   char *err, size_t errlen)
{
	char tmp[NAME_MAX + 1];
	struct stat st;
	int fd;

	if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && !S_ISLNK(st.st_mode) &&
	    (!S_ISREG(st.st_mode) || st.st_nlink > 1))
		return sw_fail(err, errlen, "%s: cannot write: %s", shown,
			       S_ISREG(st.st_mode) ? "the file has other hard links" : "not a regular file");
	fd = temp_at(dirfd, name, tmp, sizeof(tmp), shown, err, errlen);
	if (fd < 0)
		return -1;
	if (sw_write_fd(fd, fn, arg, shown, err, errlen))
		goto out_unlink;
	if (renameat(dirfd, tmp, dirfd, name)) {
		sw_fail(err, errlen, "%s: cannot rename into place: %s", shown, strerror(errno));
		goto out_unlink;
	}
	return 0;
out_unlink:
	unlinkat(dirfd, tmp, 0);
	return -1;
}

int sfile_write(const char *path, sw_write_fn fn, const void *arg, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	char dir[PATH_MAX];
	int fd, rc;

	if (!*name)
		return sw_fail(err, errlen, "%s: cannot write: a folder, not a file name", path);
	if (sfile_path(dir, sizeof(dir), err, errlen, "%.*s", slash ? (slash == path ? 1 : (int)(slash - path)) : 1,
		       slash ? path : "."))
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return sw_fail(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	rc = sfile_write_at(fd, name, fn, arg, path, err, errlen);
	close(fd);
	return rc;
}

int sfile_write_under(const char *root, const char *rel, sw_write_fn fn, const void *arg, char *err,
		      size_t errlen)
{
	char shown[PATH_MAX], part[NAME_MAX + 1];
	const char *p = rel, *slash;
	int fd, rc = -1;

	if (sfile_path(shown, sizeof(shown), err, errlen, "%s/%s", root, rel))
		return -1;
	if (sw_mkdir_p(root))
		return sw_fail(err, errlen, "%s: cannot create: %s", root, strerror(errno));
	fd = sfile_dir(root, err, errlen);
	if (fd < 0)
		return -1;
	while ((slash = strchr(p, '/'))) {
		int sub;

		if (slash == p || (size_t)(slash - p) > NAME_MAX) {
			sw_fail(err, errlen, "%s: not a plain relative name", shown);
			goto out_close;
		}
		snprintf(part, sizeof(part), "%.*s", (int)(slash - p), p);
		shown[strlen(root) + 1 + (size_t)(slash - rel)] = '\0';
		sub = sfile_subdir(fd, part, true, shown, err, errlen);
		shown[strlen(root) + 1 + (size_t)(slash - rel)] = '/';
		if (sub < 0)
			goto out_close;
		close(fd);
		fd = sub;
		p = slash + 1;
	}
	rc = sfile_write_at(fd, p, fn, arg, shown, err, errlen);
out_close:
	close(fd);
	return rc;
}

int sfile_open_own(const char *path, int flags, char *err, size_t errlen)
{
	int fd = open(path, (flags & ~O_TRUNC) | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644), e;
	struct stat st;

	if (fd < 0) {
		e = errno;
		sw_fail(err, errlen, "%s: cannot write: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	e = EINVAL;
	if (fstat(fd, &st))
		e = errno, sw_fail(err, errlen, "%s: cannot write: %s", path, strerror(e));
	else if (!S_ISREG(st.st_mode))
		sw_fail(err, errlen, "%s: cannot write: not a regular file", path);
	else if (st.st_nlink > 1)
		sw_fail(err, errlen, "%s: cannot write: the file has other hard links", path);
	else if ((flags & O_TRUNC) && ftruncate(fd, 0))
		e = errno, sw_fail(err, errlen, "%s: cannot write: %s", path, strerror(e));
	else
		e = 0;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

FILE *sfile_fopen_own(const char *path, const char *mode, char *err, size_t errlen)
{
	int fd = sfile_open_own(path, O_WRONLY | (mode[0] == 'a' ? O_APPEND : O_TRUNC), err, errlen);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f) {
		sw_fail(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}
