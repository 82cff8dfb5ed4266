#!/bin/sh
# tests/layers/check.sh - the layers of src/ (tests/layers/layers.txt)
# checked on the built objects. Run from the repository root after the
# objects are built (make layers-test):
#   sh tests/layers/check.sh [OBJDIR]          (default build/obj)
# Fails on a call from a module into a layer it may not call (nm of its
# object), on any module but engine*.c and main.c that reaches mpi.h or
# calls MPI, on a core module that exits or prints on stdout (unless the
# table allows it, with the reason), on a cycle of calls between modules or
# of includes between headers, on a src/*.c the table does not list (or a
# row with no file), and when src/README.md's source map gives a module
# another layer than the table (or none). Then the self-test: the same
# check over the real objects plus planted ones (a back-call, a cycle, a
# print, an mpi.h, ...) must fail on each and name it.
set -u
. "$(dirname "$0")/../lib.sh"
t_begin layers
T_LOG_LINES=20

HERE=$(dirname "$0")
OBJ=${1:-build/obj}
CC=${CC:-cc}
MPICC=${MPICC:-mpicc}
FLAGS="-std=c11 -D_GNU_SOURCE -Iinclude -Isrc -I/usr/include/postgresql"
t_tmpdir layers

# facts SRCDIR OBJDIR [FILE...]: what the check reads of FILE... (default:
# every SRCDIR/*.c), one a line: "def MODULE TYPE SYMBOL" and "use MODULE
# SYMBOL" from nm of its object, "mpi MODULE" when its source reaches
# mpi.h (mpicc finds it for any source), "cpp ERROR" when the sources
# do not preprocess.
facts() {
	d=$1 o=$2
	shift 2
	[ $# -gt 0 ] || set -- "$d"/*.c
	for f; do
		m=$(basename "$f")
		[ -f "$o/${m%.c}.o" ] &&
			nm "$o/${m%.c}.o" | awk -v m="$m" 'NF == 2 { print "use", m, $2 } NF == 3 { print "def", m, $2, $3 }'
	done
	$MPICC $FLAGS -I"$d" -M "$@" > "$T_TMP/m.dep" 2> "$T_TMP/m.err" ||
		echo "cpp $(grep -m 1 error "$T_TMP/m.err")"
	sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$T_TMP/m.dep" |
		awk '/\/mpi\.h( |$)/ { sub(/\.o:.*/, ".c"); print "mpi", $1 }'
}

# layers_check TABLE SRCDIR FACTS: print every breach of TABLE, one a
# line; status 1 when there is any. SRCDIR holds the modules' sources (and
# src/'s private headers), FACTS what facts printed of them.
layers_check() {
	python3 - "$1" "$3" "$2" include <<'EOF'
import glob, os, re, sys

table, facts, srcdir, incdir = sys.argv[1:]
bad = []
layers, modules, allows = {}, {}, {}
for n, line in enumerate(open(table), 1):
    w = line.split("#")[0].split()
    if not w:
        continue
    if w[0] == "layer" and len(w) >= 4:
        layers[w[1]] = (w[2], [x for x in w[3:] if x != "-"])
    elif w[0] == "module" and len(w) == 3:
        modules[w[1]] = w[2]
    elif w[0] == "allow" and len(w) >= 4:
        allows[(w[1], w[2])] = False
    else:
        bad.append("%s:%d: not a layer, module or allow line" % (table, n))
for m, l in modules.items():
    if l not in layers:
        bad.append("%s: layer %s is not in the table" % (m, l))

def reach(l, seen=None):   # the layers l may call: itself and below
    seen = seen if seen is not None else set()
    if l in seen or l not in layers:
        return seen
    seen.add(l)
    for o in layers[l][1]:
        reach(o, seen)
    return seen

part = {m: layers.get(l, ("?", []))[0] for m, l in modules.items()}
srcs = {os.path.basename(f) for f in glob.glob(srcdir + "/*.c")}
for m in sorted(srcs - set(modules)):
    bad.append("%s: not in the table (give it a layer)" % m)
for m in sorted(set(modules) - srcs):
    bad.append("%s: in the table, but there is no such file" % m)

defs, uses, mpi = {}, {}, set()
for line in open(facts):
    w = line.split()
    if w[0] == "def" and w[2] in "TDBRCVW":
        defs[w[3]] = w[1]
    elif w[0] == "use":
        uses.setdefault(w[1], set()).add(w[2])
    elif w[0] == "mpi":
        mpi.add(w[1])
    elif w[0] == "cpp":
        bad.append("the sources do not preprocess: " + " ".join(w[1:]))
for m in sorted(modules):
    if part[m] != "alone" and m not in uses and not any(d == m for d in defs.values()):
        bad.append("%s: no object (build first: make layers-test)" % m)

exits = {"exit", "_exit", "_Exit", "quick_exit", "abort", "__assert_fail", "err", "errx",
         "verr", "verrx"}
prints = {"printf", "vprintf", "puts", "putchar", "__printf_chk", "__vprintf_chk", "stdout"}
calls = {}
for m, syms in sorted(uses.items()):
    lm = modules.get(m)
    for s in sorted(syms):
        d = defs.get(s)
        if d and d != m:
            calls.setdefault(m, set()).add(d)
            ld = modules.get(d)
            if lm and ld and ld not in reach(lm):
                bad.append("%s (layer %s) calls %s (layer %s): %s" % (m, lm, d, ld, s))
        if part.get(m) not in ("engine", None) and re.match(r"P?MPI_", s):
            bad.append("%s (%s) calls MPI: %s" % (m, part[m], s))
        if part.get(m) == "core" and s in exits | prints:
            if (m, s) in allows:
                allows[(m, s)] = True
            else:
                what = "exits" if s in exits else "prints on stdout"
                bad.append("%s (core) %s: %s" % (m, what, s))
for m in sorted(mpi):
    if part.get(m) != "engine":
        bad.append("%s (%s) includes mpi.h" % (m, part.get(m)))
for (m, s), used in sorted(allows.items()):
    if not used:
        bad.append("%s: allow %s, but it does not use it (drop the row)" % (m, s))

def cycles(graph):   # Tarjan: the strongly connected parts of two or more
    index, low, stack, on, out = {}, {}, [], set(), []
    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out

# The source map (src/README.md, when SRCDIR has one) agrees with the table.
if os.path.exists(srcdir + "/README.md"):
    mapped = dict(re.findall(r"^\| `([^`]+\.c)` \| (\S+) \|", open(srcdir + "/README.md").read(), re.M))
    for m in sorted(set(modules) | set(mapped)):
        if mapped.get(m) != modules.get(m):
            bad.append("%s: layer %s in src/README.md, %s in the table" % (m, mapped.get(m, "none"),
                                                                        modules.get(m, "none")))
for c in cycles(calls):
    bad.append("link cycle: " + ", ".join(c))
incs = {}
for h in glob.glob(incdir + "/*.h") + glob.glob(srcdir + "/*.h"):
    for i in re.findall(r'^#include "([^"]+)"', open(h).read(), re.M):
        incs.setdefault(os.path.basename(h), set()).add(i)
for c in cycles(incs):
    bad.append("include cycle: " + ", ".join(c))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
}

if [ ! -f "$OBJ/sw.o" ]; then
	t_bail "layers: no objects in $OBJ (make layers-test builds them)"
fi

facts src "$OBJ" > "$T_TMP/real.facts"
if layers_check "$HERE/layers.txt" src "$T_TMP/real.facts" > "$T_TMP/real" 2>&1; then
	ok "src/ keeps its layers: no back-call, no cycle, mpi.h only in the engine and main.c, the core neither exits nor prints on stdout"
else
	fail "src/ breaks its layers (tests/layers/layers.txt)" "$T_TMP/real"
fi

# The self-test. A planted tree: every real source and object, the table,
# and one planted module at a time with its row.
OBJ_ABS=$(cd "$OBJ" && pwd)
first_text() { nm --defined-only "$OBJ/$1.o" | awk '$2 == "T" { print $3; exit }'; }
up_core=$(first_text results)
up_cmd=$(first_text engine)

# plant "ROWS" CC [NAME SOURCE]...: the planted tree in $T_TMP/p: src/
# with the sources given (NAME.c, or NAME when it ends in .h), obj/ with
# their objects, the table with ROWS.
plant() {
	rm -rf "$T_TMP/p"
	mkdir -p "$T_TMP/p/src" "$T_TMP/p/obj"
	ln -s "$PWD"/src/*.c "$PWD"/src/*.h "$PWD"/src/README.md "$T_TMP/p/src/"
	ln -s "$OBJ_ABS"/*.o "$T_TMP/p/obj/"
	{ cat "$HERE/layers.txt"; printf '%s\n' "$1"; } > "$T_TMP/p/layers.txt"
	pcc=$2
	shift 2
	: > "$T_TMP/p/new"
	while [ $# -ge 2 ]; do
		case $1 in
		*.h)	printf '%s\n' "$2" > "$T_TMP/p/src/$1" ;;
		*)	printf '%s\n' "$2" > "$T_TMP/p/src/$1.c"
			$pcc $FLAGS -I"$T_TMP/p/src" -c -o "$T_TMP/p/obj/$1.o" "$T_TMP/p/src/$1.c" 2>> "$T_TMP/p/cc.err"
			echo "$T_TMP/p/src/$1.c" >> "$T_TMP/p/new" ;;
		esac
		shift 2
	done
}

# planted WHAT WANT: the check over the planted tree fails with a line
# that matches WANT (grep -E).
planted() {
	cp "$T_TMP/real.facts" "$T_TMP/p/facts"
	# shellcheck disable=SC2046
	[ -s "$T_TMP/p/new" ] && facts "$T_TMP/p/src" "$T_TMP/p/obj" $(cat "$T_TMP/p/new") >> "$T_TMP/p/facts"
	if layers_check "$T_TMP/p/layers.txt" "$T_TMP/p/src" "$T_TMP/p/facts" > "$T_TMP/p/out" 2>&1; then
		fail "self-test: $1 passed the check" "$T_TMP/p/out"
	elif grep -Eq "$2" "$T_TMP/p/out"; then
		ok "self-test: $1 fails the check: $(grep -E "$2" "$T_TMP/p/out" | head -n 1)"
	else
		fail "self-test: $1 failed, but not naming it ($2)" "$T_TMP/p/out"
	fi
}

plant "module zz_up.c sw" "$CC" zz_up "extern void $up_core(void); void zz_up(void) { $up_core(); }"
planted "a module of layer sw calling results.c" "^zz_up\.c \(layer sw\) calls results\.c \(layer results\): $up_core$"

plant "module zz_cmd.c command" "$CC" zz_cmd "extern void $up_cmd(void); void zz_cmd(void) { $up_cmd(); }"
planted "a command module calling the engine" "^zz_cmd\.c \(layer command\) calls engine\.c \(layer engine\): $up_cmd$"

plant "module zz_a.c util
module zz_b.c util" "$CC" zz_a "void zz_b(int); void zz_a(int n) { if (n) zz_b(n - 1); }" \
	zz_b "void zz_a(int); void zz_b(int n) { if (n) zz_a(n - 1); }"
planted "two modules of one layer calling each other" "^link cycle: zz_a\.c, zz_b\.c$"

plant "module zz_print.c util" "$CC" zz_print '#include <stdio.h>
#include <stdlib.h>
void zz_print(int n) { printf("%d\n", n); if (n) exit(1); }'
planted "a core module printing on stdout" "^zz_print\.c \(core\) prints on stdout: (__)?printf(_chk)?$"
planted "a core module calling exit" "^zz_print\.c \(core\) exits: exit$"

plant "module zz_mpi.c results" "$MPICC" zz_mpi '#include <mpi.h>
double zz_mpi(void) { return MPI_Wtime(); }'
planted "a core module including mpi.h" "^zz_mpi\.c \(core\) includes mpi\.h$"
planted "a core module calling MPI" "^zz_mpi\.c \(core\) calls MPI: P?MPI_Wtime$"

plant "" "$CC" zz_new "int zz_new(void) { return 0; }"
planted "a source the table does not list" "^zz_new\.c: not in the table"

plant "" "$CC" zz_h1.h '#include "zz_h2.h"' zz_h2.h '#include "zz_h1.h"'
planted "two headers including each other" "^include cycle: zz_h1\.h, zz_h2\.h$"

plant "module zz_map.c util" "$CC" zz_map "int zz_map(void) { return 0; }"
planted "a module the source map does not list" "^zz_map\.c: layer none in src/README\.md, util in the table$"

plant "module zz_cpp.c util" "$CC" zz_cpp '#include "zz_missing.h"'
planted "a source that does not preprocess" "^the sources do not preprocess: .*zz_missing\.h"

plant "allow sw.c exit planted" "$CC"
planted "an allow row that nothing uses" "^sw\.c: allow exit, but it does not use it"

t_end
