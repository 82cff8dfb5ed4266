/*
 * A preload for the FIFO-phase bench (phase.sh): right after MPI_Init or
 * MPI_Init_thread returns, ranks 0 and 1 swap FIFO_SHIFT one-byte
 * messages (MPI_Sendrecv on MPI_COMM_WORLD), one at a time. On shared
 * memory each message takes one element of the receiver's FIFO, so the
 * program that follows starts with both FIFOs FIFO_SHIFT elements further
 * on; nothing else about it changes.
 *   mpicc -shared -fPIC -o build/bench/fifo_shift.so tests/bench/fifo_shift.c
 *   FIFO_SHIFT=16 LD_PRELOAD=build/bench/fifo_shift.so mpiexec -n 2 PROGRAM
 */
#include <mpi.h>
#include <stdlib.h>

static void shift(void)
{
	const char *s = getenv("FIFO_SHIFT");
	int n = s ? atoi(s) : 0, rank, size;
	char out = 0, in;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2 || rank > 1)
		return;
	for (int i = 0; i < n; i++)
		MPI_Sendrecv(&out, 1, MPI_BYTE, 1 - rank, 0, &in, 1, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
}

int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);

	if (rc == MPI_SUCCESS)
		shift();
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);

	if (rc == MPI_SUCCESS)
		shift();
	return rc;
}
