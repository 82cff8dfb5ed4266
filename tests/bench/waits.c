/*
 * How should a rank wait for a window of requests? 2 ranks, a window of 64
 * messages each way (osu_bibw's loop), one size, five ways of waiting,
 * alternating in every round so that load affects them alike:
 *   waitall  MPI_Waitall (what OSU does; cannot watch a deadline)
 *   test     MPI_Test on the first unfinished request, one per poll
 *   testsome MPI_Testsome over the next 16 unfinished requests (swstress)
 *   testall  MPI_Testall over all of them
 * Prints the median MB/s (both directions) of each over the rounds.
 *   mpiexec -n 2 build/bench/waits [SIZE [WINDOWS [ROUNDS]]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define W 64
#define SLICE 16
enum { WAITALL, TEST, TESTSOME, TESTALL, NWAYS };
static const char *const name[NWAYS] = { "waitall", "test", "testsome", "testall" };

static void wait_window(int way, MPI_Request *r, int n)
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
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rank, nranks;
	long size = argc > 1 ? atol(argv[1]) : 8, windows = argc > 2 ? atol(argv[2]) : 3000;
	int rounds = argc > 3 ? atoi(argv[3]) : 15;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (nranks != 2 || size < 1 || windows < 1 || rounds < 1 || rounds > 1000) {
		if (rank == 0)
			fprintf(stderr, "usage: mpiexec -n 2 waits [SIZE [WINDOWS [ROUNDS]]]\n");
		MPI_Finalize();
		return 2;
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
				wait_window(way, req, 2 * W);
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
