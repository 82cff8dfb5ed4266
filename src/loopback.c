/*
 * loopback.c - a TCP connection of this process to itself; see
 * loopback.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "loopback.h"
#include "sw.h"

int loopback_open(struct loopback *lb, char *err, size_t errlen)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	lb->tx = lb->rx = -1;
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		goto fail;
	lb->tx = socket(AF_INET, SOCK_STREAM, 0);
	if (lb->tx < 0 || connect(lb->tx, (struct sockaddr *)&a, sizeof(a)))
		goto fail;
	lb->rx = accept(l, NULL, NULL);
	if (lb->rx < 0 || fcntl(lb->tx, F_SETFL, O_NONBLOCK) || fcntl(lb->rx, F_SETFL, O_NONBLOCK))
		goto fail;
	close(l);
	return 0;

fail:
	sw_fail(err, errlen, "a TCP connection to itself on 127.0.0.1: %s", strerror(errno));
	if (l >= 0)
		close(l);
	loopback_close(lb);
	return -1;
}

long loopback_send(struct loopback *lb, const char *buf, size_t n)
{
	ssize_t k = send(lb->tx, buf, n, MSG_NOSIGNAL);

	if (k < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
	return (long)k;
}

long loopback_drain(struct loopback *lb, char *buf, size_t cap)
{
	long total = 0;
	ssize_t k;

	while ((k = recv(lb->rx, buf, cap, 0)) > 0)
		total += (long)k;
	if (k == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
		return -1;   /* closed by the other end, or an error */
	return total;
}

void loopback_close(struct loopback *lb)
{
	if (lb->tx >= 0)
		close(lb->tx);
	if (lb->rx >= 0)
		close(lb->rx);
	lb->tx = lb->rx = -1;
}
