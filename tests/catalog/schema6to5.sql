-- A catalog store of schema 6 taken back to schema 5, as swstress made
-- it before schema 6 (store.c's migration 5, verbatim): the map tables
-- keyed by run alone, holding each map run's first pattern and size only
-- (the one whose files are links.csv, hosts.csv and groups.csv), and
-- none of the other sizes' files. Plain SQL that SQLite and PostgreSQL
-- both run (tests/catalog/run_tests.sh, tests/unit/test_catalog.c).
ALTER TABLE maps RENAME TO maps6;
ALTER TABLE map_hosts RENAME TO map_hosts6;
ALTER TABLE map_groups RENAME TO map_groups6;
ALTER TABLE map_links RENAME TO map_links6;
ALTER TABLE map_claims RENAME TO map_claims6;
CREATE TABLE maps ( run TEXT PRIMARY KEY REFERENCES runs(name) ON DELETE CASCADE, metric TEXT NOT NULL, nhosts INTEGER NOT NULL, ngroups INTEGER NOT NULL, inferred INTEGER NOT NULL, floor DOUBLE PRECISION NOT NULL, alpha DOUBLE PRECISION NOT NULL, confidence DOUBLE PRECISION NOT NULL);
CREATE TABLE map_hosts ( run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE, host TEXT NOT NULL, group_name TEXT NOT NULL, axis INTEGER NOT NULL, score DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, n INTEGER NOT NULL, rel DOUBLE PRECISION, slower INTEGER NOT NULL, tested INTEGER NOT NULL, p DOUBLE PRECISION, flagged INTEGER NOT NULL, PRIMARY KEY (run, host));
CREATE TABLE map_groups ( run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE, kind TEXT NOT NULL, group_a TEXT NOT NULL, group_b TEXT NOT NULL, n INTEGER NOT NULL, median DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, rel DOUBLE PRECISION, rel_lo DOUBLE PRECISION, rel_hi DOUBLE PRECISION, p DOUBLE PRECISION, flagged INTEGER NOT NULL, capacity DOUBLE PRECISION, cap_lo DOUBLE PRECISION, cap_hi DOUBLE PRECISION, cap_pairs INTEGER NOT NULL, PRIMARY KEY (run, kind, group_a, group_b));
CREATE TABLE map_links ( run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE, host_a TEXT NOT NULL, host_b TEXT NOT NULL, median DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, n INTEGER NOT NULL, rel DOUBLE PRECISION, flagged INTEGER NOT NULL, cause TEXT NOT NULL, PRIMARY KEY (run, host_a, host_b));
CREATE TABLE map_claims ( run TEXT NOT NULL REFERENCES runs(name) ON DELETE CASCADE, claim INTEGER NOT NULL, kind TEXT NOT NULL, element TEXT NOT NULL, holds TEXT NOT NULL, rel DOUBLE PRECISION, lo DOUBLE PRECISION, hi DOUBLE PRECISION, p DOUBLE PRECISION, evidence TEXT NOT NULL, PRIMARY KEY (run, claim));
CREATE TABLE first_set AS SELECT m.run, m.pattern, m.size_bytes FROM maps6 m WHERE NOT EXISTS (SELECT 1 FROM cells c WHERE c.run = m.run AND c.cell < (SELECT min(d.cell) FROM cells d WHERE d.run = m.run AND d.pattern = m.pattern AND d.size_bytes = m.size_bytes));
INSERT INTO maps SELECT m.run, metric, nhosts, ngroups, inferred, floor, alpha, confidence FROM maps6 m JOIN first_set f ON f.run = m.run AND f.pattern = m.pattern AND f.size_bytes = m.size_bytes;
INSERT INTO map_hosts SELECT x.run, host, group_name, axis, score, lo, hi, n, rel, slower, tested, p, flagged FROM map_hosts6 x JOIN first_set f ON f.run = x.run AND f.pattern = x.pattern AND f.size_bytes = x.size_bytes;
INSERT INTO map_groups SELECT x.run, kind, group_a, group_b, n, median, lo, hi, rel, rel_lo, rel_hi, p, flagged, capacity, cap_lo, cap_hi, cap_pairs FROM map_groups6 x JOIN first_set f ON f.run = x.run AND f.pattern = x.pattern AND f.size_bytes = x.size_bytes;
INSERT INTO map_links SELECT x.run, host_a, host_b, median, lo, hi, n, rel, flagged, cause FROM map_links6 x JOIN first_set f ON f.run = x.run AND f.pattern = x.pattern AND f.size_bytes = x.size_bytes;
INSERT INTO map_claims SELECT x.run, claim, kind, element, holds, rel, lo, hi, p, evidence FROM map_claims6 x JOIN first_set f ON f.run = x.run AND f.pattern = x.pattern AND f.size_bytes = x.size_bytes;
DROP TABLE map_claims6;
DROP TABLE map_links6;
DROP TABLE map_groups6;
DROP TABLE map_hosts6;
DROP TABLE maps6;
DROP TABLE first_set;
DELETE FROM run_files WHERE file LIKE 'links-%' OR file LIKE 'hosts-%' OR file LIKE 'groups-%';
DELETE FROM schema_migrations WHERE version = 6;
