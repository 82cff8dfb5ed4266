/* pattern.c - MPI-free facts about the patterns; see pattern.h. */
#include <string.h>
#include "pattern.h"

static const struct sw_pattern_info patterns[PAT_COUNT] = {
	[PAT_PINGPONG] = { "pingpong", "latency: send, wait for the echo; per-hop latency = round trip / 2", 1, true, false },
	[PAT_STREAM] = { "stream", "one-way bandwidth: a window of nonblocking sends, then a short ack", 1, false, true },
	[PAT_BIDIR] = { "bidir", "both directions at once, a window each way; bandwidth counts both", 2, false, true },
	[PAT_INCAST] = { "incast", "k senders stream to one receiver at once (levels count senders); "
			 "the aggregate at the receiver against one sender's", 1, false, true, true },
};

const struct sw_pattern_info *pattern_info(int id)
{
	if (id < 0 || id >= PAT_COUNT)
		return NULL;
	return &patterns[id];
}

int pattern_find(const char *name)
{
	for (int i = 0; i < PAT_COUNT; i++)
		if (strcmp(patterns[i].name, name) == 0)
			return i;
	return -1;
}

const char *pattern_name(int id)
{
	const struct sw_pattern_info *p = pattern_info(id);

	return p ? p->name : "?";
}

double pattern_latency(int id, long hops, double seconds)
{
	(void)id;
	return hops > 0 ? seconds / (double)hops : 0.0;
}

double pattern_bandwidth(int id, uint64_t size, long hops, double seconds)
{
	const struct sw_pattern_info *p = pattern_info(id);
	int dirs = p ? p->directions : 1;

	if (seconds <= 0.0)
		return 0.0;
	return (double)dirs * (double)size * (double)hops / seconds;
}
