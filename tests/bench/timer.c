/*
 * timer.c - MPI_Wtime facts for RESULTS.md: the resolution MPICH claims
 * (MPI_Wtick), the smallest step seen between two successive calls, and
 * the cost of one call (median of 9 batches of 10^6 calls). Run on one
 * rank: mpiexec -n 1 build/bench/timer
 * With --base it prints only the Unix time (CLOCK_REALTIME) minus MPI_Wtime,
 * so that a script can put swstress's sample times (rank 0's MPI_Wtime) on
 * the wall clock; MPICH's MPI_Wtime is CLOCK_REALTIME minus a fixed base.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	enum { BATCH = 1000000, NB = 9 };
	double cost[NB], step = 1e9, sink = 0;
	int global = 0, flag = 0, *attr;

	MPI_Init(&argc, &argv);
	if (argc > 1 && strcmp(argv[1], "--base") == 0) {
		struct timespec ts;
		double w = MPI_Wtime();
		int rank;

		clock_gettime(CLOCK_REALTIME, &ts);
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		if (rank == 0)
			printf("%.6f\n", (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 - w);
		MPI_Finalize();
		return 0;
	}
	for (int b = 0; b < NB; b++) {
		double t0 = MPI_Wtime();

		for (int i = 0; i < BATCH; i++)
			sink += MPI_Wtime();
		cost[b] = (MPI_Wtime() - t0) / BATCH;
	}
	for (int i = 0; i < 1000000; i++) {
		double a = MPI_Wtime(), c;

		while ((c = MPI_Wtime()) == a)
			;
		if (c - a < step)
			step = c - a;
	}
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &attr, &flag);
	if (flag && attr)
		global = *attr;
	qsort(cost, NB, sizeof(cost[0]), cmp);
	printf("MPI_Wtick_s=%.3g\nsmallest_step_s=%.3g\ncall_ns_median=%.2f\ncall_ns_min=%.2f\n"
	       "call_ns_max=%.2f\nwtime_is_global=%d\n", MPI_Wtick(), step, cost[NB / 2] * 1e9,
	       cost[0] * 1e9, cost[NB - 1] * 1e9, global);
	if (sink == 42.0)
		puts("");
	MPI_Finalize();
	return 0;
}
