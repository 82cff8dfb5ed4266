/*
 * finalize_preload.c - LD_PRELOAD workaround for an MPI_Finalize hang of
 * MPICH 4.0.x ch4:ucx over UCX TCP (fixed upstream in MPICH 4.2.0).
 *
 * MPICH's UCX finalize disconnects its endpoints and then blocks in the PMI
 * barrier, in read() on PMI_FD, without driving UCX progress. A peer whose
 * UCX TCP flush waits for an acknowledgement that only our progress would
 * send then never reaches the barrier: both wait forever.
 *
 * This library remembers the UCX workers (wrapping ucp_worker_create and
 * ucp_worker_destroy). Once an endpoint has been disconnected or closed
 * (ucp_disconnect_nb, ucp_ep_close_nb, ucp_ep_close_nbx), a read(), recv()
 * or poll() on the PMI file descriptor (environment PMI_FD) that would block
 * instead waits for the descriptor to become readable while calling
 * ucp_worker_progress on the live workers, so the peers' flushes complete.
 * Nothing changes before the first disconnect, or for other descriptors.
 *
 * It ships with swstress: make builds it as BUILD/finalize_preload.so, make
 * install puts it in PREFIX/lib/swstress/, and swstress run and check load it
 * themselves when the MPI library needs it (main.c). Other programs:
 *   mpiexec -genv LD_PRELOAD /path/finalize_preload.so ...
 * Debug: SWS_PRELOAD_DEBUG=1 reports on stderr how long each wait took.
 *
 * UCX types are declared here as opaque pointers, so no UCX headers are needed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

typedef void *ucp_worker_h;
typedef void *ucp_ep_h;
typedef void *ucp_context_h;
typedef int ucs_status_t;
typedef void *ucs_status_ptr_t;

#define MAX_WORKERS 64

/* Its presence tells swstress that the library is loaded. */
__attribute__((visibility("default"))) const int swstress_finalize_preload = 1;

static ucp_worker_h workers[MAX_WORKERS];
static int nworkers;
static volatile int closing;  /* an endpoint has been disconnected */
static int pmi_fd = -1;
static int debug;
static __thread int in_wait;  /* no recursion through our own calls */

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_recv)(int, void *, size_t, int);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static unsigned (*real_progress)(ucp_worker_h);

#define RESOLVE(var, name)                                   \
	do {                                                     \
		if (!(var)) *(void **)(&(var)) = dlsym(RTLD_NEXT, name); \
	} while (0)

__attribute__((constructor)) static void init(void)
{
	const char *s = getenv("PMI_FD");
	if (s && *s) pmi_fd = atoi(s);
	s = getenv("SWS_PRELOAD_DEBUG");
	debug = s && *s && *s != '0';
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Drive UCX progress until fd is readable (or poll reports an error/hangup),
 * or timeout_ms passes (timeout_ms < 0: no limit). Returns poll's result. */
static int progress_until_readable(int fd, int timeout_ms)
{
	double t0 = now();
	long spins = 0, events = 0;
	int r;
	in_wait = 1;
	RESOLVE(real_poll, "poll");
	RESOLVE(real_progress, "ucp_worker_progress");
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN, .revents = 0};
		unsigned ev = 0;
		r = real_poll(&p, 1, 0);
		if (r != 0) break;
		if (timeout_ms >= 0 && (now() - t0) * 1000.0 >= timeout_ms) break;
		if (real_progress)
			for (int i = 0; i < nworkers; i++) ev += real_progress(workers[i]);
		events += ev;
		spins++;
		/* Be kind to the other ranks sharing the cores: yield while young,
		 * then sleep briefly in poll when nothing happened. */
		if (ev == 0) {
			if (spins < 200) {
				sched_yield();
			} else {
				struct pollfd q = {.fd = fd, .events = POLLIN, .revents = 0};
				r = real_poll(&q, 1, 1);
				if (r != 0) break;
			}
		}
	}
	in_wait = 0;
	if (debug)
		fprintf(stderr, "finalize_preload[%d]: waited %.3f s on PMI fd %d, %ld spins, %ld UCX events, %d workers\n",
		        (int)getpid(), now() - t0, fd, spins, events, nworkers);
	return r;
}

static int must_wait(int fd)
{
	return closing && !in_wait && fd >= 0 && fd == pmi_fd && nworkers > 0;
}

/* ---- UCX wrappers ---- */

ucs_status_t ucp_worker_create(ucp_context_h ctx, const void *params, ucp_worker_h *worker_p)
{
	static ucs_status_t (*real)(ucp_context_h, const void *, ucp_worker_h *);
	RESOLVE(real, "ucp_worker_create");
	if (!real) return -1; /* UCS_ERR_NO_MESSAGE */
	ucs_status_t st = real(ctx, params, worker_p);
	if (st == 0 && worker_p && nworkers < MAX_WORKERS) workers[nworkers++] = *worker_p;
	return st;
}

void ucp_worker_destroy(ucp_worker_h w)
{
	static void (*real)(ucp_worker_h);
	RESOLVE(real, "ucp_worker_destroy");
	for (int i = 0; i < nworkers; i++)
		if (workers[i] == w) {
			workers[i] = workers[--nworkers];
			break;
		}
	if (real) real(w);
}

ucs_status_ptr_t ucp_disconnect_nb(ucp_ep_h ep)
{
	static ucs_status_ptr_t (*real)(ucp_ep_h);
	RESOLVE(real, "ucp_disconnect_nb");
	closing = 1;
	return real ? real(ep) : NULL;
}

ucs_status_ptr_t ucp_ep_close_nb(ucp_ep_h ep, unsigned mode)
{
	static ucs_status_ptr_t (*real)(ucp_ep_h, unsigned);
	RESOLVE(real, "ucp_ep_close_nb");
	closing = 1;
	return real ? real(ep, mode) : NULL;
}

ucs_status_ptr_t ucp_ep_close_nbx(ucp_ep_h ep, const void *param)
{
	static ucs_status_ptr_t (*real)(ucp_ep_h, const void *);
	RESOLVE(real, "ucp_ep_close_nbx");
	closing = 1;
	return real ? real(ep, param) : NULL;
}

/* ---- libc wrappers ---- */

ssize_t read(int fd, void *buf, size_t n)
{
	RESOLVE(real_read, "read");
	if (must_wait(fd)) progress_until_readable(fd, -1);
	return real_read(fd, buf, n);
}

ssize_t recv(int fd, void *buf, size_t n, int flags)
{
	RESOLVE(real_recv, "recv");
	if (must_wait(fd) && !(flags & MSG_DONTWAIT)) progress_until_readable(fd, -1);
	return real_recv(fd, buf, n, flags);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	RESOLVE(real_poll, "poll");
	if (n == 1 && timeout != 0 && must_wait(fds[0].fd) && (fds[0].events & POLLIN)) {
		int r = progress_until_readable(fds[0].fd, timeout);
		if (r == 0) return 0; /* timed out */
	}
	return real_poll(fds, n, timeout);
}
