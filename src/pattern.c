/* pattern.c - MPI-free facts about the patterns; see pattern.h. */
#include <string.h>
#include "pattern.h"

static struct sw_pattern_info patterns[PAT_MAX] = {
	[PAT_PINGPONG] = { .name = "pingpong", .abbrev = "pp", .metric = SW_METRIC_LATENCY, .directions = 1,
			   .even_hops = true, .charts = PAT_CHARTS_PAIRS, .headline = 1,
			   .help = "latency: send, wait for the echo; per-hop latency = round trip / 2" },
	[PAT_STREAM] = { .name = "stream", .abbrev = "st", .metric = SW_METRIC_BANDWIDTH, .directions = 1,
			 .timed = true, .windowed = true, .charts = PAT_CHARTS_PAIRS, .headline = 1,
			 .help = "one-way bandwidth: a window of nonblocking sends, then a short ack" },
	[PAT_BIDIR] = { .name = "bidir", .abbrev = "bi", .metric = SW_METRIC_BANDWIDTH, .directions = 2,
			.timed = true, .windowed = true, .charts = PAT_CHARTS_PAIRS, .headline = 2,
			.help = "both directions at once, a window each way; bandwidth counts both" },
	[PAT_INCAST] = { .name = "incast", .abbrev = "in", .metric = SW_METRIC_BANDWIDTH, .directions = 1,
			 .timed = true, .windowed = true, .incast = true, .charts = PAT_CHARTS_INCAST,
			 .help = "k senders stream to one receiver at once (levels count senders); "
				 "the aggregate at the receiver against one sender's" },
};
static int npatterns = PAT_COUNT;

const struct sw_pattern_info *pattern_info(int id)
{
	if (id < 0 || id >= npatterns)
		return NULL;
	return &patterns[id];
}

int pattern_count(void)
{
	return npatterns;
}

int pattern_add(const struct sw_pattern_info *p)
{
	if (npatterns == PAT_MAX)
		return -1;
	patterns[npatterns] = *p;
	return npatterns++;
}

int pattern_find(const char *name)
{
	for (int i = 0; i < npatterns; i++)
		if (strcmp(patterns[i].name, name) == 0)
			return i;
	return -1;
}

const char *pattern_name(int id)
{
	const struct sw_pattern_info *p = pattern_info(id);

	return p ? p->name : "?";
}

bool pattern_latency_metric(int id)
{
	const struct sw_pattern_info *p = pattern_info(id);

	return p && p->metric == SW_METRIC_LATENCY;
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

double pattern_msgrate(uint64_t size, double bytes_per_s)
{
	return size ? bytes_per_s / (double)size : 0.0;
}
