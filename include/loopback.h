/*
 * loopback.h - a TCP connection of this process to itself over the
 * loopback interface of its own network stack: the kernel's work of
 * sending and receiving a stream, without a network. The aggressors of
 * the victims' CPU control round (victims.h) stream through it at the
 * rate they reached beside the victims, so the control round loads the
 * shared CPUs with the same TCP work (in the kernel, where polling in
 * user space does not reach) and nothing crosses the switch. MPI-free.
 */
#ifndef LOOPBACK_H
#define LOOPBACK_H

#include <stddef.h>

struct loopback {
	int tx, rx;               /* the two ends, non-blocking; -1 when closed */
};

/* Open the connection on 127.0.0.1 (a port the kernel picks). 0, or -1
 * with the reason in err (both ends closed). */
int loopback_open(struct loopback *lb, char *err, size_t errlen);

/* Send up to n bytes of buf without blocking; the bytes the kernel took
 * (0 when its buffer is full), or -1 on an error. */
long loopback_send(struct loopback *lb, const char *buf, size_t n);

/* Read, without blocking, everything that has arrived (into buf, cap at
 * a time, overwritten); the bytes read, or -1 on an error. */
long loopback_drain(struct loopback *lb, char *buf, size_t cap);

/* Close both ends (either may be -1). */
void loopback_close(struct loopback *lb);

#endif
