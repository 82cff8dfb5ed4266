/*
 * store.h - the switch catalog's store: published runs in SQLite (a file,
 * the single-user default) or PostgreSQL (postgresql://..., a site-wide
 * store shared by many publishers), with one schema on both. MPI-free.
 *
 * Schema (versioned: the table schema_migrations lists the versions
 * applied; store_open applies the missing ones in one transaction, under
 * a lock, so two first publishers cannot both migrate):
 *
 *   runs       one row per run: name (the results folder name, the key),
 *              started, published, tool and MPI version, command line,
 *              ranks, hosts, largest node count, and the [switch] and
 *              [host] keys of its config (vendor, model, firmware, ...);
 *              shared_node 1 when ranks shared a host (the run measured
 *              the host, not a switch), supplied the [switch] keys given
 *              at publish time ("vendor, model", or "")
 *   run_files  the run's files verbatim (run.json, samples.csv,
 *              summary.csv, pairs.csv, fits.csv, report.txt; a map run's
 *              links.csv, hosts.csv, groups.csv of every pattern and size,
 *              named as mapout_set_file names them): run, file, content
 *   cells      per cell, as analysis_run computes them with the run's own
 *              config: medians and CIs (latency in us per hop, bandwidth
 *              in MB/s = 10^6 bytes/s), latency inflation and bandwidth
 *              drop against the baseline level (%, CI, Mann-Whitney p,
 *              significant), drifted (1: a change of a sequential run
 *              whose baseline level, measured again, differed; schema 4);
 *              NULL where a number does not exist
 *   suspects   the run's verdict on its ports: hosts flagged in at least
 *              half of their cells
 *   maps, map_hosts, map_groups, map_links, map_claims (schema 5;
 *              schema 6 keys every row by pattern and size_bytes too, one
 *              map per pattern and size of the run: a store of schema 5,
 *              which held the first only, migrates its rows under the
 *              pattern and size of the run's first cell)
 *              a map run's statistics (schedule = map; mapout.h, blame.h)
 *              in the CSV units of its metric (MB/s or us): the map
 *              (metric, hosts, groups, inferred, floor, alpha,
 *              confidence); each host (group, axis: its place on the heat
 *              map, score [lo, hi] over partners, rel its effect against
 *              its group's typical host, slower of tested partners, p, flagged); each tested uplink
 *              and boundary (groups.csv's columns); each link (host_a,
 *              host_b, median [lo, hi], n, rel, flagged alone, cause);
 *              each claim (kind, element, holds, rel [lo, hi], p and the
 *              report's evidence line). Checked first: links.csv,
 *              hosts.csv and groups.csv of every pattern and size must
 *              be what run.json gives (mapout_check), or the run is
 *              refused with FILE:LINE
 *
 * Publishing one run is one transaction: a reader sees all of it or
 * nothing. The name is the key: publishing a run that is already stored
 * (same run.json and samples.csv) changes nothing; a different run with the
 * same name is refused. Concurrent publishers wait for each other
 * (SQLite: BEGIN IMMEDIATE and a busy timeout; PostgreSQL: the primary
 * key), so nothing is lost.
 */
#ifndef STORE_H
#define STORE_H

#include <stdbool.h>
#include <stddef.h>

#define STORE_SCHEMA_VERSION 6

struct store;

/* Open (and migrate) a store: "postgresql://..." or "postgres://..."
 * (libpq connection URI), else an SQLite file, created when create is
 * true. NULL with "STORE: what is wrong" in err. */
struct store *store_open(const char *url, bool create, char *err, size_t errlen);
void store_close(struct store *s);

/* The store's name for messages: its file, or its URL without the password. */
const char *store_name(const struct store *s);

/* The default store of a results folder: OUTPUT/catalog.sqlite. */
void store_default_path(const char *output, char *buf, size_t len);

/* What store_publish did. */
enum store_result {
	STORE_ADDED = 0,      /* the run is now in the store       */
	STORE_PRESENT = 1,    /* the same run was already there     */
	STORE_REFUSED = -1,   /* the run is invalid: err says why   */
	STORE_FAILED = -2,    /* the store failed: err says how     */
};

/* What publish may add to a run. */
struct store_publish_opts {
	bool shared_node;        /* accept runs whose ranks shared a host */
	const char *vendor, *model, *firmware; /* [switch] keys for a run that
	                          * lacks them (NULL: none); recorded as
	                          * supplied; a run that has another value is
	                          * refused */
};

/* Publish the run in a results folder (or its run.json), read and
 * validated by results_load; also refused: incomplete runs, runs without
 * [switch] model (in the run or in o), runs whose ranks shared a host
 * (allow_shared_node = yes) unless o->shared_node, names other than
 * letters, digits, '.', '_', '-'. o may be NULL (nothing added). */
int store_publish(struct store *s, const char *path, const struct store_publish_opts *o, char *err,
		  size_t errlen);

/* A query's rows, one call each: ncols values as text, NULL for SQL NULL.
 * Return nonzero to stop with an error. */
typedef int (*store_row_fn)(void *arg, int ncols, const char *const *vals);

/* Run a SELECT with parameters $1..$n (text, NULL for NULL) and call fn
 * for every row. 0, or -1 with the message in err. */
int store_query(struct store *s, const char *sql, int n, const char *const *params,
		store_row_fn fn, void *arg, char *err, size_t errlen);

/* The schema version of the store. */
int store_version(struct store *s);

#endif
