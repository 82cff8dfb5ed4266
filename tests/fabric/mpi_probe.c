/*
 * mpi_probe.c - a small MPI program to validate the emulated fabric.
 *
 *   mpi_probe [-p halves|adjacent] [-l 1,2,4] [-t SECONDS] [-s BYTES] [-w WINDOW] [-y USEC]
 *
 * Every rank prints its host name (gethostname, MPI_Get_processor_name) and
 * the size of its MPI_COMM_TYPE_SHARED communicator. Then, for each level k,
 * the first k pairs stream messages (default 64 KiB, a window of 8
 * nonblocking sends) one way, from the lower rank to its partner, for about
 * t seconds (default 1), all pairs starting together; rank 0 prints each
 * pair's rate and the aggregate in Mbit/s (10^6 bit/s of MPI payload):
 *
 *   host rank=0 hostname=swsN00 processor=swsN00 shared=1
 *   pair level=2 pair=0 ranks=0->4 hosts=swsN00->swsN04 bytes=... sec=... mbit=94.8
 *   level level=2 pairs=2 aggregate_mbit=189.5
 *
 * Waiting ranks sleep (they do not spin), and active ranks sleep -y
 * microseconds (default 200; 0 = sched_yield) between tests of their pending
 * requests: many ranks share few cores here, and the kernel's veth, bridge
 * and tbf work needs CPU too.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { TAG_DATA = 1, TAG_STOP = 2, TAG_ACK = 3 };

static void nap(long usec)
{
	struct timespec ts = {usec / 1000000, (usec % 1000000) * 1000};
	nanosleep(&ts, NULL);
}

static long idle_usec = 200; /* -y: pause between tests; 0 = sched_yield */

static void idle(void)
{
	if (idle_usec > 0) nap(idle_usec);
	else sched_yield();
}

/* Wait for requests, giving the CPU away meanwhile. */
static void wait_all(int n, MPI_Request *req)
{
	MPI_Status st[64];
	int done = 0;
	for (;;) {
		MPI_Testall(n, req, &done, st);
		if (done) return;
		idle();
	}
}

/* Barrier that sleeps instead of spinning. */
static void lazy_barrier(MPI_Comm comm)
{
	MPI_Request r;
	int done = 0;
	MPI_Ibarrier(comm, &r);
	for (;;) {
		MPI_Test(&r, &done, MPI_STATUS_IGNORE);
		if (done) return;
		nap(200);
	}
}

int main(int argc, char **argv)
{
	const char *pairing = "halves", *levels_arg = "1,2,4";
	double seconds = 1.0;
	int size = 65536, window = 8, opt;

	MPI_Init(&argc, &argv);
	int rank, np;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);

	while ((opt = getopt(argc, argv, "p:l:t:s:w:y:")) != -1) {
		switch (opt) {
		case 'p': pairing = optarg; break;
		case 'l': levels_arg = optarg; break;
		case 't': seconds = atof(optarg); break;
		case 's': size = atoi(optarg); break;
		case 'w': window = atoi(optarg); break;
		case 'y': idle_usec = atol(optarg); break;
		default:
			if (rank == 0) fprintf(stderr, "usage: mpi_probe [-p halves|adjacent] [-l 1,2,4] [-t s] [-s bytes] [-w window] [-y idle_usec]\n");
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
	if (np < 2 || size < 1 || window < 1 || window > 64 ||
	    (strcmp(pairing, "halves") && strcmp(pairing, "adjacent"))) {
		if (rank == 0) fprintf(stderr, "mpi_probe: bad arguments or fewer than 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}

	/* Hosts. */
	char host[256] = "", proc[MPI_MAX_PROCESSOR_NAME] = "";
	int plen, shared;
	gethostname(host, sizeof host - 1);
	MPI_Get_processor_name(proc, &plen);
	MPI_Comm shm;
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
	MPI_Comm_size(shm, &shared);
	MPI_Comm_free(&shm);
	char *hosts = malloc((size_t)np * 256), *procs = malloc((size_t)np * MPI_MAX_PROCESSOR_NAME);
	int *shareds = malloc(sizeof(int) * np);
	MPI_Gather(host, 256, MPI_CHAR, hosts, 256, MPI_CHAR, 0, MPI_COMM_WORLD);
	MPI_Gather(proc, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, procs, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
	MPI_Gather(&shared, 1, MPI_INT, shareds, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		for (int r = 0; r < np; r++)
			printf("host rank=%d hostname=%s processor=%s shared=%d\n", r, hosts + r * 256,
			       procs + r * MPI_MAX_PROCESSOR_NAME, shareds[r]);
		fflush(stdout);
	}

	/* Pairs: pair p is (a[p] -> b[p]). */
	int npairs = np / 2, *pa = malloc(sizeof(int) * npairs), *pb = malloc(sizeof(int) * npairs);
	for (int p = 0; p < npairs; p++) {
		if (!strcmp(pairing, "halves")) { pa[p] = p; pb[p] = p + np / 2; }
		else { pa[p] = 2 * p; pb[p] = 2 * p + 1; }
	}

	char *buf = malloc((size_t)size * window);
	memset(buf, rank, (size_t)size * window);
	MPI_Request req[64];
	char *lv = strdup(levels_arg);
	for (char *tok = strtok(lv, ","); tok; tok = strtok(NULL, ",")) {
		int k = atoi(tok);
		if (k < 1 || k > npairs) {
			if (rank == 0) printf("level level=%d skipped (1..%d pairs possible)\n", k, npairs);
			continue;
		}
		int mypair = -1, sender = 0;
		for (int p = 0; p < k; p++) {
			if (pa[p] == rank) { mypair = p; sender = 1; }
			if (pb[p] == rank) { mypair = p; sender = 0; }
		}
		double res[3] = {0, 0, 0}; /* bytes, seconds, pair */
		lazy_barrier(MPI_COMM_WORLD);
		if (mypair >= 0 && sender) {
			int peer = pb[mypair];
			long long msgs = 0;
			double t0 = MPI_Wtime();
			do {
				for (int i = 0; i < window; i++)
					MPI_Isend(buf + (size_t)i * size, size, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req[i]);
				wait_all(window, req);
				msgs += window;
			} while (MPI_Wtime() - t0 < seconds);
			MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_STOP, MPI_COMM_WORLD);
			MPI_Irecv(NULL, 0, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD, &req[0]);
			wait_all(1, req);
			res[0] = (double)msgs * size;
			res[1] = MPI_Wtime() - t0;
			res[2] = mypair;
		} else if (mypair >= 0) {
			int peer = pa[mypair];
			MPI_Status st;
			for (;;) {
				MPI_Irecv(buf, size, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &req[0]);
				int done = 0;
				while (!done) {
					MPI_Test(&req[0], &done, &st);
					if (!done) idle();
				}
				if (st.MPI_TAG == TAG_STOP) break;
			}
			MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_ACK, MPI_COMM_WORLD);
			res[2] = -1;
		} else {
			res[2] = -1;
		}
		double *all = rank == 0 ? malloc(sizeof(double) * 3 * np) : NULL;
		lazy_barrier(MPI_COMM_WORLD);
		MPI_Gather(res, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (rank == 0) {
			double agg = 0;
			for (int r = 0; r < np; r++) {
				if (all[3 * r + 2] < 0) continue;
				int p = (int)all[3 * r + 2];
				double mbit = all[3 * r] * 8 / all[3 * r + 1] / 1e6;
				agg += mbit;
				printf("pair level=%d pair=%d ranks=%d->%d hosts=%s->%s bytes=%.0f sec=%.3f mbit=%.1f\n", k, p, pa[p],
				       pb[p], hosts + pa[p] * 256, hosts + pb[p] * 256, all[3 * r], all[3 * r + 1], mbit);
			}
			printf("level level=%d pairs=%d aggregate_mbit=%.1f\n", k, k, agg);
			fflush(stdout);
			free(all);
		}
	}
	free(lv);
	free(buf);
	free(pa);
	free(pb);
	free(hosts);
	free(procs);
	free(shareds);
	lazy_barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
