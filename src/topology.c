/*
 * topology.c - Slurm's topology and the config's [topology] section; see
 * topology.h. Pure but for reading the files it is given.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "topology.h"

#define TOPO_LINE_MAX 8192

/* Append name to the list *out (n of them, cap allocated). 0 or -1. */
static int push(char (**out)[SW_HOST_MAX], int *n, int *cap, const char *name, size_t len)
{
	if (len == 0 || len >= SW_HOST_MAX || *n >= TOPOLOGY_MAX_HOSTS)
		return -1;
	if (*n == *cap) {
		int nc = *cap ? 2 * *cap : 16;
		char(*p)[SW_HOST_MAX] = realloc(*out, (size_t)nc * sizeof(*p));

		if (!p)
			return -1;
		*out = p;
		*cap = nc;
	}
	memcpy((*out)[*n], name, len);
	(*out)[*n][len] = '\0';
	(*n)++;
	return 0;
}

/* Expand one name with brackets, s[0..len), after the prefix pre (plen
 * bytes, already expanded): each "[a-b,c]" in turn, numbers padded to
 * the width of their first bound. 0, or -1 with err. */
static int expand(const char *pre, size_t plen, const char *s, size_t len, char (**out)[SW_HOST_MAX], int *n,
		  int *cap, const char *list, char *err, size_t errlen)
{
	char buf[SW_HOST_MAX];
	const char *open = memchr(s, '[', len), *close;

	if (!open) {
		if (plen + len >= sizeof(buf))
			return sw_fail(err, errlen, "host list '%s': a name longer than %d bytes", list, SW_HOST_MAX - 1);
		memcpy(buf, pre, plen);
		memcpy(buf + plen, s, len);
		if (memchr(s, ']', len))
			return sw_fail(err, errlen, "host list '%s': ']' without '['", list);
		if (push(out, n, cap, buf, plen + len))
			return sw_fail(err, errlen, "host list '%s': more than %d hosts, or out of memory", list,
				       TOPOLOGY_MAX_HOSTS);
		return 0;
	}
	close = memchr(open, ']', len - (size_t)(open - s));
	if (!close)
		return sw_fail(err, errlen, "host list '%s': '[' without ']'", list);
	if (plen + (size_t)(open - s) >= sizeof(buf))
		return sw_fail(err, errlen, "host list '%s': a name longer than %d bytes", list, SW_HOST_MAX - 1);
	for (const char *r = open + 1; r < close;) {
		const char *end = memchr(r, ',', (size_t)(close - r));
		char *e;
		long lo, hi;
		int width;

		if (!end)
			end = close;
		if (!isdigit((unsigned char)*r))
			return sw_fail(err, errlen, "host list '%s': '%.*s' is not a number or range", list,
				       (int)(end - r), r);
		errno = 0;
		lo = strtol(r, &e, 10);
		width = (int)(e - r);
		hi = lo;
		if (*e == '-') {
			if (!isdigit((unsigned char)e[1]))
				return sw_fail(err, errlen, "host list '%s': '%.*s' is not a range", list, (int)(end - r),
					       r);
			hi = strtol(e + 1, &e, 10);
		}
		if (e != end || errno || hi < lo || hi - lo >= TOPOLOGY_MAX_HOSTS)
			return sw_fail(err, errlen, "host list '%s': '%.*s' is not a range low-high", list,
				       (int)(end - r), r);
		for (long v = lo; v <= hi; v++) {
			int k = snprintf(buf, sizeof(buf), "%.*s%.*s%0*ld", (int)plen, pre, (int)(open - s), s, width, v);

			if (k < 0 || (size_t)k >= sizeof(buf))
				return sw_fail(err, errlen, "host list '%s': a name longer than %d bytes", list,
					       SW_HOST_MAX - 1);
			if (expand(buf, (size_t)k, close + 1, len - (size_t)(close + 1 - s), out, n, cap, list, err,
				   errlen))
				return -1;
		}
		r = end < close ? end + 1 : close;
	}
	return 0;
}

int topology_hostlist(const char *list, char (**out)[SW_HOST_MAX], int *n, char *err, size_t errlen)
{
	int cap = 0, depth = 0;
	const char *start = list;

	*out = NULL;
	*n = 0;
	if (!*list)
		return sw_fail(err, errlen, "host list is empty");
	/* split at the commas outside brackets */
	for (const char *p = list;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			if (p == start || expand("", 0, start, (size_t)(p - start), out, n, &cap, list, err, errlen)) {
				if (p == start)
					sw_fail(err, errlen, "host list '%s': an empty name", list);
				free(*out);
				*out = NULL;
				*n = 0;
				return -1;
			}
			start = p + 1;
		}
		if (!*p)
			break;
	}
	return 0;
}

static int find_switch(const struct topology *t, const char *name)
{
	for (int i = 0; i < t->nswitch; i++)
		if (!strcmp(t->sw[i].name, name))
			return i;
	return -1;
}

/* A new switch named name (where: for errors). Its index, or -1. */
static int new_switch(struct topology *t, const char *name, const char *where, char *err, size_t errlen)
{
	struct topology_switch *s;

	if (!*name || strlen(name) >= SW_HOST_MAX)
		return sw_fail(err, errlen, "%s: switch name '%s' empty or longer than %d bytes", where, name,
			       SW_HOST_MAX - 1);
	if (find_switch(t, name) >= 0)
		return sw_fail(err, errlen, "%s: switch '%s' named twice", where, name);
	s = realloc(t->sw, ((size_t)t->nswitch + 1) * sizeof(*s));
	if (!s)
		return sw_fail(err, errlen, "%s: out of memory", where);
	t->sw = s;
	s = &t->sw[t->nswitch];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->parent = -1;
	return t->nswitch++;
}

int topology_add(struct topology *t, const char *name, const char *list, const char *where, char *err,
		 size_t errlen)
{
	char msg[256];
	int k = new_switch(t, name, where, err, errlen);

	if (k < 0)
		return -1;
	if (topology_hostlist(list, &t->sw[k].host, &t->sw[k].nhost, msg, sizeof(msg)))
		return sw_fail(err, errlen, "%s: %s", where, msg);
	return 0;
}

/* One line of topology.conf or scontrol's output, in place. Children's
 * names (Switches=) go to t->sw[k].child as text, resolved at the end. */
static int parse_line(struct topology *t, char *line, char **children, const char *where, char *err,
		      size_t errlen)
{
	char *save = NULL, *tok, *nodes = NULL, *switches = NULL, *name = NULL;
	int k;

	for (tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			return sw_fail(err, errlen, "%s: expected Key=Value, got '%s'", where, tok);
		*eq = '\0';
		if (!strcasecmp(tok, "SwitchName"))
			name = eq + 1;
		else if (!strcasecmp(tok, "Nodes"))
			nodes = eq + 1;
		else if (!strcasecmp(tok, "Switches"))
			switches = eq + 1;
		else if (strcasecmp(tok, "LinkSpeed") && strcasecmp(tok, "Level"))
			return sw_fail(err, errlen, "%s: unknown key '%s' (SwitchName, Nodes, Switches, LinkSpeed, Level)",
				       where, tok);
	}
	if (!name)
		return sw_fail(err, errlen, "%s: no SwitchName=", where);
	/* scontrol prints "(null)" for an empty list */
	if (nodes && (!*nodes || !strcmp(nodes, "(null)")))
		nodes = NULL;
	if (switches && (!*switches || !strcmp(switches, "(null)")))
		switches = NULL;
	if (!nodes && !switches)
		return sw_fail(err, errlen, "%s: switch '%s' has neither Nodes= nor Switches=", where, name);
	if (nodes) {
		if (topology_add(t, name, nodes, where, err, errlen))
			return -1;
		k = t->nswitch - 1;
	} else if ((k = new_switch(t, name, where, err, errlen)) < 0) {
		return -1;
	}
	if (switches) {
		children[k] = malloc(strlen(switches) + strlen(where) + 2);
		if (!children[k])
			return sw_fail(err, errlen, "%s: out of memory", where);
		/* "where\tlist": the line, for the error of an unknown child */
		sprintf(children[k], "%s\t%s", where, switches);
	}
	return 0;
}

/* Set each child's parent from children[] (k: "where\tlist"); a name no
 * switch has, a second parent or a cycle is an error. */
static int resolve(struct topology *t, char **children, char *err, size_t errlen)
{
	for (int k = 0; k < t->nswitch; k++) {
		char (*names)[SW_HOST_MAX] = NULL, msg[256], *tab;
		int n = 0;

		if (!children[k])
			continue;
		tab = strchr(children[k], '\t');
		*tab = '\0';
		if (topology_hostlist(tab + 1, &names, &n, msg, sizeof(msg)))
			return sw_fail(err, errlen, "%s: %s", children[k], msg);
		for (int i = 0; i < n; i++) {
			int c = find_switch(t, names[i]);

			if (c < 0 || t->sw[c].parent >= 0 || c == k) {
				sw_fail(err, errlen, "%s: Switches= names '%s', %s", children[k], names[i],
					c < 0 ? "which no line defines" : c == k ? "itself" : "which has a parent already");
				free(names);
				return -1;
			}
			t->sw[c].parent = k;
		}
		free(names);
	}
	for (int k = 0; k < t->nswitch; k++) {
		int up = t->sw[k].parent, steps = 0;

		for (; up >= 0 && steps <= t->nswitch; steps++)
			up = t->sw[up].parent;
		if (steps > t->nswitch)
			return sw_fail(err, errlen, "switch '%s': its Switches= form a cycle", t->sw[k].name);
	}
	return 0;
}

int topology_parse(FILE *f, const char *name, struct topology *t, char *err, size_t errlen)
{
	char line[TOPO_LINE_MAX], where[SW_PATH_MAX + 16];
	char **children = NULL;
	int lineno = 0, ret = -1, cap = 0;

	memset(t, 0, sizeof(*t));
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), *p = line;

		lineno++;
		snprintf(where, sizeof(where), "%s:%d", name, lineno);
		if (!strchr(line, '\n') && !feof(f)) {
			sw_fail(err, errlen, "%s: line longer than %d characters", where, TOPO_LINE_MAX - 2);
			goto out_free;
		}
		if (hash)
			*hash = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			continue;
		if (t->nswitch + 1 > cap) {
			char **c = realloc(children, (size_t)(cap = 2 * cap + 8) * sizeof(*c));

			if (!c) {
				sw_fail(err, errlen, "%s: out of memory", where);
				goto out_free;
			}
			for (int i = t->nswitch; i < cap; i++)
				c[i] = NULL;
			children = c;
		}
		if (parse_line(t, p, children, where, err, errlen))
			goto out_free;
	}
	if (ferror(f)) {
		sw_fail(err, errlen, "%s: cannot read: %s", name, strerror(errno ? errno : EIO));
		goto out_free;
	}
	if (!t->nswitch) {
		sw_fail(err, errlen, "%s: no switch (SwitchName=...)", name);
		goto out_free;
	}
	ret = resolve(t, children, err, errlen);
out_free:
	for (int i = 0; i < cap; i++)
		free(children[i]);
	free(children);
	if (ret)
		topology_free(t);
	return ret;
}

int topology_read_config(const char *path, struct topology *t, char *err, size_t errlen)
{
	char line[TOPO_LINE_MAX], where[SW_PATH_MAX + 16];
	FILE *f = fopen(path, "r");
	bool in = false;
	int lineno = 0, ret = -1;

	memset(t, 0, sizeof(*t));
	if (!f)
		return sw_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *eq, *e;

		lineno++;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		while (isspace((unsigned char)*p))
			p++;
		/* a comment: '#' or ';' first, or after a blank */
		for (e = p; *e; e++)
			if ((*e == '#' || *e == ';') && (e == p || isspace((unsigned char)e[-1]))) {
				*e = '\0';
				break;
			}
		e = p + strlen(p);
		while (e > p && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (!*p)
			continue;
		if (*p == '[') {
			in = !strncmp(p, "[topology]", 10) && !p[10];
			continue;
		}
		if (!in)
			continue;
		eq = strchr(p, '=');
		if (!eq) {
			sw_fail(err, errlen, "%s: expected 'group = host list', got '%s'", where, p);
			goto out_close;
		}
		for (e = eq; e > p && isspace((unsigned char)e[-1]); e--)
			;
		*e = '\0';
		for (eq++; isspace((unsigned char)*eq); eq++)
			;
		if (topology_add(t, p, eq, where, err, errlen))
			goto out_close;
	}
	ret = 0;
out_close:
	fclose(f);
	if (ret)
		topology_free(t);
	return ret;
}

int topology_groups(const struct topology *t, const char *const *host, int nhost, int *group,
		    char (**names)[SW_HOST_MAX], int *ngroup, char *err, size_t errlen)
{
	int *num = malloc(((size_t)t->nswitch + 1) * sizeof(*num));

	*names = NULL;
	*ngroup = 0;
	if (!num)
		return sw_fail(err, errlen, "topology: out of memory");
	for (int k = 0; k < t->nswitch; k++)
		num[k] = -1;
	for (int i = 0; i < nhost; i++) {
		int best = -1;

		/* the lowest switch that lists it: the one with the fewest hosts */
		for (int k = 0; k < t->nswitch; k++)
			for (int j = 0; j < t->sw[k].nhost; j++)
				if (!strcmp(t->sw[k].host[j], host[i]) && (best < 0 || t->sw[k].nhost < t->sw[best].nhost)) {
					best = k;
					break;
				}
		if (best < 0) {
			free(num);
			free(*names);
			*names = NULL;
			*ngroup = 0;
			return sw_fail(err, errlen, "topology: no switch lists host '%s'", host[i]);
		}
		if (num[best] < 0) {
			char(*p)[SW_HOST_MAX] = realloc(*names, ((size_t)*ngroup + 1) * sizeof(*p));

			if (!p) {
				free(num);
				free(*names);
				*names = NULL;
				*ngroup = 0;
				return sw_fail(err, errlen, "topology: out of memory");
			}
			*names = p;
			snprintf(p[*ngroup], SW_HOST_MAX, "%s", t->sw[best].name);
			num[best] = (*ngroup)++;
		}
		group[i] = num[best];
	}
	free(num);
	return 0;
}

void topology_free(struct topology *t)
{
	for (int k = 0; k < t->nswitch; k++)
		free(t->sw[k].host);
	free(t->sw);
	memset(t, 0, sizeof(*t));
}
