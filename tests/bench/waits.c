/*
 * How should a rank wait for a window of requests? 2 ranks, a window of 64
 * messages each way (osu_bibw's loop), one size, five ways of waiting,
 * alternating in every round so that load affects them alike:
 *   waitall  MPI_Waitall (what OSU does; cannot watch a deadline)
 *   test     MPI_Test on the first unfinished request, one per poll
 *   testsome MPI_Testsome over the next 16 unfinished requests (swstress)
 *   testall  MPI_Testall over all of them
 *   osu      two MPI_Waitall, osu_bibw's order: rank 0 its sends first,
 *            rank 1 its receives first (swstress's blocking_waits takes
 *            one MPI_Waitall over both, as waitall does)
 * Prints the median MB/s (both directions) of each over the rounds.
 *   mpiexec -n 2 build/bench/waits [SIZE [WINDOWS [ROUNDS]]]
 *
 * With "ping", the same for a ping-pong (osu_latency's loop), four ways,
 * median and best one-way latency (us):
 *   recv     blocking MPI_Send and MPI_Recv (what OSU does)
 *   waitall  MPI_Irecv, MPI_Isend, MPI_Waitall (cannot watch a deadline)
 *   testsome MPI_Testsome over both requests (swstress: eng_wait_reqs,
 *            then MPI_Test on the one left)
 *   test     MPI_Test on each request in turn
 *   mpiexec -n 2 build/bench/waits ping [SIZE [ITERATIONS [ROUNDS]]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 64
#define SLICE 16
enum { WAITALL, TEST, TESTSOME, TESTALL, OSU, NWAYS };
static const char *const name[NWAYS] = { "waitall", "test", "testsome", "testall", "osu" };

/* r: n / 2 receives, then n / 2 sends */
static void wait_window(int way, int rank, MPI_Request *r, int n)
{
	MPI_Status st[2 * W];
	int i = 0, flag = 0, done, idx[SLICE];

	switch (way) {
	case WAITALL:
		MPI_Waitall(n, r, st);
		break;
	case TEST:
		while (i < n) {
			MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
			i += flag;
		}
		break;
	case TESTSOME:
		while (i < n) {
			MPI_Testsome(n - i < SLICE ? n - i : SLICE, &r[i], &done, idx, st);
			while (i < n && r[i] == MPI_REQUEST_NULL)
				i++;
		}
		break;
	case TESTALL:
		while (!flag)
			MPI_Testall(n, r, &flag, st);
		break;
	case OSU:
		MPI_Waitall(n / 2, rank == 0 ? r + n / 2 : r, st);
		MPI_Waitall(n / 2, rank == 0 ? r : r + n / 2, st);
		break;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

enum { P_RECV, P_WAITALL, P_TESTSOME, P_TEST, NPING };
static const char *const ping_name[NPING] = { "recv", "waitall", "testsome", "test" };

/* Wait for r[0..n) one way of waiting for a ping-pong. */
static void ping_wait(int way, MPI_Request *r, int n)
{
	MPI_Status st[2];
	int flag, done, idx[2];

	switch (way) {
	case P_WAITALL:
		MPI_Waitall(n, r, st);
		break;
	case P_TESTSOME:
		for (int left = n; left > 0; left -= done == MPI_UNDEFINED ? 0 : done)
			MPI_Testsome(n, r, &done, idx, st);
		break;
	case P_TEST:
		for (int i = 0; i < n; i += flag)
			MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
		break;
	}
}

/* One ping-pong round trip of size bytes with peer, one way of waiting. */
static void ping_once(int way, int rank, int peer, char *sbuf, char *rbuf, int size)
{
	MPI_Request r[2];

	if (way == P_RECV) {
		if (rank == 0) {
			MPI_Send(sbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
			MPI_Recv(rbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(rbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(sbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
		}
	} else if (rank == 0) {
		MPI_Irecv(rbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r[1]);
		MPI_Isend(sbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r[0]);
		ping_wait(way, r, 2);
	} else {
		MPI_Irecv(rbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r[0]);
		ping_wait(way, r, 1);
		MPI_Isend(sbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &r[0]);
		ping_wait(way, r, 1);
	}
}

static int ping(int rank, long size, long iters, int rounds)
{
	char *sbuf = calloc(1, (size_t)size + 1), *rbuf = calloc(1, (size_t)size + 1);
	double *us = calloc((size_t)NPING * (size_t)rounds, sizeof(double));

	if (!sbuf || !rbuf || !us)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (int k = 0; k < rounds; k++)
		for (int way = 0; way < NPING; way++) {
			MPI_Barrier(MPI_COMM_WORLD);
			double t0 = MPI_Wtime();
			for (long it = 0; it < iters; it++)
				ping_once(way, rank, 1 - rank, sbuf, rbuf, (int)size);
			us[way * rounds + k] = (MPI_Wtime() - t0) / (double)iters / 2 * 1e6;
		}
	if (rank == 0) {
		printf("waits ping: %ld B, %ld round trips, %d rounds: one-way us, median and best\n", size, iters,
		       rounds);
		for (int way = 0; way < NPING; way++) {
			qsort(us + way * rounds, (size_t)rounds, sizeof(double), cmp_double);
			printf("  %-9s %8.4f %8.4f\n", ping_name[way], us[way * rounds + rounds / 2], us[way * rounds]);
		}
	}
	free(sbuf);
	free(rbuf);
	free(us);
	return 0;
}

int main(int argc, char **argv)
{
	int rank, nranks, pp = argc > 1 && strcmp(argv[1], "ping") == 0;
	long size = argc > 1 + pp ? atol(argv[1 + pp]) : 8;
	long windows = argc > 2 + pp ? atol(argv[2 + pp]) : pp ? 20000 : 3000;
	int rounds = argc > 3 + pp ? atoi(argv[3 + pp]) : 15;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (nranks != 2 || size < 1 || windows < 1 || rounds < 1 || rounds > 1000) {
		if (rank == 0)
			fprintf(stderr, "usage: mpiexec -n 2 waits [ping] [SIZE [WINDOWS|ITERATIONS [ROUNDS]]]\n");
		MPI_Finalize();
		return 2;
	}
	if (pp) {
		ping(rank, size, windows, rounds);
		MPI_Finalize();
		return 0;
	}
	char *sbuf = calloc(1, (size_t)size), *rbuf = calloc(1, (size_t)size);
	double *mbs = calloc((size_t)NWAYS * (size_t)rounds, sizeof(double));
	MPI_Request req[2 * W];
	int peer = 1 - rank;

	if (!sbuf || !rbuf || !mbs)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (int k = 0; k < rounds; k++)
		for (int way = 0; way < NWAYS; way++) {
			MPI_Barrier(MPI_COMM_WORLD);
			double t0 = MPI_Wtime();
			for (long it = 0; it < windows; it++) {
				for (int j = 0; j < W; j++)
					MPI_Irecv(rbuf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[j]);
				for (int j = 0; j < W; j++)
					MPI_Isend(sbuf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[W + j]);
				wait_window(way, rank, req, 2 * W);
			}
			mbs[way * rounds + k] = 2.0 * (double)size * W * (double)windows / (MPI_Wtime() - t0) / 1e6;
		}
	if (rank == 0) {
		printf("waits: %ld B, window %d each way, %ld windows, median of %d rounds (MB/s, both directions)\n",
		       size, W, windows, rounds);
		for (int way = 0; way < NWAYS; way++) {
			qsort(mbs + way * rounds, (size_t)rounds, sizeof(double), cmp_double);
			printf("  %-9s %10.1f\n", name[way], mbs[way * rounds + rounds / 2]);
		}
	}
	free(sbuf);
	free(rbuf);
	free(mbs);
	MPI_Finalize();
	return 0;
}
