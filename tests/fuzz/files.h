/*
 * files.h - for the fuzz targets that read a results folder: one input
 * holds several files, each after a line "%%NAME%%" (NAME may hold one
 * '/': a folder of its own); text before the first such line is run.json
 * of the first folder. Written under one private temporary folder per
 * process, emptied before every input.
 */
#ifndef FUZZ_FILES_H
#define FUZZ_FILES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char g_root[64];

static void files_clean(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_root);
	(void)!system(cmd);
}

/* Write data as files under g_root (first is the default folder, e.g.
 * "a"); returns g_root. */
static const char *files_write(const uint8_t *data, size_t size, const char *first)
{
	char name[128], path[256];
	const uint8_t *p = data, *end = data + size;

	if (!g_root[0]) {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

		snprintf(g_root, sizeof(g_root), "%s/swfuzz-files-%d", base, (int)getpid());
		atexit(files_clean);
	}
	files_clean();
	if (mkdir(g_root, 0700))
		abort();
	snprintf(name, sizeof(name), "%s/run.json", first);
	while (p <= end) {
		const uint8_t *next = p, *body_end = end;
		char next_name[128] = "";

		/* find the next "\n%%NAME%%\n" */
		for (const uint8_t *q = p; q + 5 <= end; q++) {
			if (!(q[0] == '\n' && q[1] == '%' && q[2] == '%'))
				continue;
			const uint8_t *close = memmem(q + 3, (size_t)(end - q - 3), "%%\n", 3);
			if (!close || close - q - 3 <= 0 || close - q - 3 >= 100 || memchr(q + 3, '\n', (size_t)(close - q - 3)))
				continue;
			snprintf(next_name, sizeof(next_name), "%.*s", (int)(close - q - 3), q + 3);
			body_end = q + 1;
			next = close + 3;
			break;
		}
		/* only a/NAME or NAME of letters, digits, '.', '_', '-' */
		if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/") == strlen(name) &&
		    !strstr(name, "..") && name[0] != '/' && strchr(name, '/') == strrchr(name, '/')) {
			char dir[128];
			const char *slash = strchr(name, '/');

			if (slash) {
				snprintf(dir, sizeof(dir), "%s/%.*s", g_root, (int)(slash - name), name);
				mkdir(dir, 0700);
			}
			snprintf(path, sizeof(path), "%s/%s", g_root, name);
			FILE *f = fopen(path, "w");
			if (f) {
				if (body_end > p)
					fwrite(p, 1, (size_t)(body_end - p), f);
				fclose(f);
			}
		}
		if (!next_name[0])
			break;
		if (strchr(next_name, '/'))
			snprintf(name, sizeof(name), "%s", next_name);
		else
			snprintf(name, sizeof(name), "%s/%s", first, next_name);
		p = next;
	}
	return g_root;
}

#endif
