#!/bin/sh
# run_tests.sh - the command line as users meet it, on build/swstress:
#   - every command: --help and -h (exit 0, its usage), --version and -V;
#   - --opt=value, --opt value and -oVALUE give the same result; run and plan
#     without a config use the defaults; bad usage is one line, exit 2 (3 and
#     stdout for judge and check);
#   - the man page: no groff warnings, and every option of every command's
#     --help is in that command's section;
#   - bash completion of commands, options, config files and keys;
#   - make install with BUILD elsewhere, into DESTDIR: the installed program
#     finds and loads its finalize workaround by itself; make uninstall
#     leaves no file behind;
#   - configs/cron/crontab run as cron runs it (env -i, the crontab's PATH):
#     silent when OK, the verdict printed (mailed) on UNKNOWN.
# Last line: "cli: N passed, N failed, N skipped" (tests/lib.sh).
#
#   sh tests/cli/run_tests.sh      (from the repository, after make)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t_begin cli
SW=$PWD/build/swstress
t_tmpdir cli
tmp=$T_TMP
export UCX_TLS=${UCX_TLS:-self,sm,tcp}

# --- help and version, every command ------------------------------------------
cmds=$("$SW" help --list=commands)
[ "$(echo "$cmds" | wc -w)" -ge 9 ] && ok "help --list=commands: $(echo $cmds)" || fail "command list: $cmds"
for c in $cmds; do
	for h in --help -h; do
		out=$("$SW" "$c" "$h" 2>&1)
		check_eq "$c $h: exit 0, usage line" "$?:$(echo "$out" | head -n 1 | cut -d' ' -f1-3)" "0:usage: swstress $c"
	done
	for v in --version -V; do
		out=$("$SW" "$c" "$v" 2>&1)
		check_eq "$c $v" "$?:$out" "0:swstress $("$SW" --version | cut -d' ' -f2)"
	done
done
# An option's help is the command's own: report --help said "history:
# table or csv" (issue #27); no command's options speak of another command.
others=
for c in $cmds; do
	for o in $cmds; do
		if [ "$o" != "$c" ] && "$SW" "$c" --help | sed -n '/^options:/,$p' | grep -q "$o: "; then
			others="$others $c:$o"
		fi
	done
done
check_eq "no command's option help speaks of another command" "$others" ""

# --- the library has no command line ------------------------------------------
# libswstress.a is the core without its commands (commands.h): nothing in it
# reads argv (getopt, cli_*) or prints on stdout; cli.c and cmd_*.c are in
# libswstress-cli.a, linked into the binary only.
if command -v nm >/dev/null && [ -f build/libswstress.a ]; then
	found=$(nm -A build/libswstress.a 2>/dev/null |
		grep -E ' U (stdout|printf|puts|putchar|vprintf|getopt|getopt_long)$| [TDR] (cli_[a-z_]*|[a-z]*_command)$')
	check_eq "libswstress.a: no argv parsing, no stdout" "$found" ""
	found=$(nm -A build/libswstress-cli.a 2>/dev/null | grep -cE ' [DR] [a-z]*_command$')
	check_eq "libswstress-cli.a: the commands of commands.h" "$found" "$(grep -c '^extern const struct cli_command' include/commands.h)"
else
	skip "libswstress.a: no argv parsing, no stdout; libswstress-cli.a: the commands" "nm or build/libswstress.a missing"
fi

# --- the verdict below its outputs and commands ---------------------------------
# health.o (the verdict, health.h) reads no database and no results folder,
# prints nothing and knows no command: its outputs (health_out.c), history
# rows (history.c) and the judge command (cmd_judge.c) build on it, never
# the other way round.
if command -v nm >/dev/null && [ -f build/obj/health.o ]; then
	found=$(nm -u build/obj/health.o | grep -E ' U (history_|sqlite3_|judge_|baseline_|cli_|results_|json_|f?printf|fputs|fputc|fwrite|puts)$' | tr -s ' ')
	check_eq "health.o: no history, database, results folder, output or command" "$found" ""
else
	skip "health.o: no history, database, results folder, output or command" "nm or build/obj/health.o missing"
fi

# --- one grammar ----------------------------------------------------------------
a=$("$SW" plan -c configs/quick.conf -n 8 2>&1) || fail "plan -c configs/quick.conf -n 8: $a"
b=$("$SW" plan --config=configs/quick.conf --ranks=8 2>&1)
d=$("$SW" plan --ranks 8 --config configs/quick.conf 2>&1)
if [ "$a" = "$b" ] && [ "$a" = "$d" ]; then ok "plan: -c F -n 8 = --config=F --ranks=8 = --ranks 8 --config F"; else fail "plan forms differ"; fi
c=$("$SW" plan configs/quick.conf -n6 sizes=8 --ranks 8 sizes=1KiB..4KiB 2>&1)
if [ "$c" != "$a" ] && echo "$c" | grep -q '^ranks 8,.* 18 cells' && echo "$c" | grep -q ' stream  *4KiB'; then ok "plan: the last -n and key=value win"; else fail "plan with keys: $c"; fi
"$SW" plan -n 4 >/dev/null 2>&1 && ok "plan without a config: the defaults" || fail "plan -n 4 without config"
out=$("$SW" plan -n 4 --bogus 2>&1); rc=$?
check_eq "plan --bogus: exit 2, one line" "$rc:$out" "2:swstress: unknown option '--bogus' (see swstress plan --help)"
out=$("$SW" plan -n 4 --cores 0 2>&1); rc=$?
check_eq "plan --cores 0: exit 2, the option named" "$rc:$out" \
	"2:swstress: option --cores: '0' is not a core count from 1 to 65536"
out=$("$SW" report 2>&1); rc=$?
check_eq "report without RESULT: exit 2" "$rc:$(echo "$out" | wc -l)" "2:1"
out=$("$SW" judge --bogus 2>/dev/null); rc=$?
check_eq "judge --bogus: UNKNOWN on stdout, exit 3" "$rc:$out" "3:SWSTRESS UNKNOWN - bad arguments: unknown option '--bogus' (see swstress judge --help)"
out=$("$SW" history --since=soon 2>&1); rc=$?
check_eq "history --since=soon: exit 2" "$rc" "2"
out=$(cd "$tmp" && for w in "set" "remove" "list a b"; do "$SW" baseline $w 2>&1; echo "exit $?"; done)
check_eq "baseline set, remove, list a b: one line each, exit 2" "$out" "swstress: baseline set needs a set name and at least one results folder
exit 2
swstress: baseline remove: needs a set name
exit 2
swstress: baseline list: one set name at most
exit 2"
out=$(mpiexec -n 2 "$SW" check --baseline 2>/dev/null); rc=$?
check_eq "check --baseline without value under mpiexec: one UNKNOWN line, exit 3" "$rc:$out" \
	"3:SWSTRESS UNKNOWN - bad arguments: option --baseline needs a value (PATH|NAME)"
out=$(cd "$tmp" && timeout 120 mpiexec -n 2 "$SW" run allow_shared_node=yes nodes=2 sizes=8 patterns=pingpong \
	repetitions=3 --label=nocfg --no-plot --no-history 2>&1); rc=$?
if [ "$rc" = 0 ] && [ -f "$tmp"/results/nocfg-*/run.json ]; then ok "run without -c: the defaults, --label=L"; else fail "run without -c (exit $rc): $out"; fi

# --- the man page ---------------------------------------------------------------
man=build/swstress.1
if ! command -v groff >/dev/null 2>&1; then
	skip "man page" "groff not installed (Debian package groff-base)"
else
	warn=$(groff -man -ww -z "$man" 2>&1)
	check_eq "man page: groff -ww has no warnings" "$warn" ""
	groff -man -Tascii -P-cbu "$man" 2>/dev/null > "$tmp/man.txt"
	missing=""
	for c in $cmds; do
		# the command's section: from its heading to the next one
		awk -v c="$c" '/^   swstress /{on = ($2 == c)} on' "$tmp/man.txt" > "$tmp/sec"
		"$SW" "$c" --help | sed -n 's/^  \(-.\)*[, ]*\(--[a-z-]*\).*/\2/p' | grep -v -e --help -e --version |
			while read -r o; do grep -q -- "$o" "$tmp/sec" || echo "$c $o"; done >> "$tmp/missing"
		[ -s "$tmp/sec" ] || echo "$c (no section)" >> "$tmp/missing"
	done
	missing=$(cat "$tmp/missing" 2>/dev/null)
	check_eq "man page: every command's --help options in its section" "$missing" ""
	"$SW" help --man | cmp -s - "$man" && ok "build/swstress.1 is what swstress help --man prints" || fail "stale $man"
fi

# --- bash completion ------------------------------------------------------------
if command -v bash >/dev/null 2>&1; then
	comp() {   # comp WORD... : what completing the last word offers
		bash -c '. src/completion.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _swstress 2>/dev/null
			printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' comp "$@"
	}
	check_eq "complete: swstress ch" "$(comp "$SW" ch)" "check "
	check_eq "complete: swstress run --con" "$(comp "$SW" run --con)" "--config "
	check_eq "complete: swstress run -c configs/q" "$(comp "$SW" run -c configs/q)" "configs/quick.conf "
	check_eq "complete: swstress run --config=configs/h" "$(comp "$SW" run --config = configs/h)" "configs/health.conf "
	check_eq "complete: swstress check warn_d" "$(comp "$SW" check warn_d)" "warn_drop= "
	check_eq "complete: swstress history --format " "$(comp "$SW" history --format '')" "classic csv table "
else
	skip "bash completion" "bash not installed"
fi

# --- make install / uninstall ---------------------------------------------------
# BUILD elsewhere: a copy of build/ whose program is marked, so that the
# installed one must come from BUILD.
mkdir -p "$tmp/b" && cp -a build/obj build/libswstress.a build/libswstress-cli.a build/swstress build/finalize_preload.so "$tmp/b/"
printf 'BUILD-MARK' >> "$tmp/b/swstress"
root=$tmp/root
if make -s install BUILD="$tmp/b" DESTDIR="$root" PREFIX=/usr >"$tmp/install.log" 2>&1; then
	cmp -s "$root/usr/bin/swstress" "$tmp/b/swstress" && ok "make install: the program of BUILD" || fail "installed program is not BUILD's"
	for f in usr/lib/swstress/finalize_preload.so usr/share/man/man1/swstress.1 \
		usr/share/swstress/slurm/swstress-check.sbatch usr/share/swstress/slurm/swstress.nhc \
		usr/share/swstress/cron/crontab \
		usr/share/bash-completion/completions/swstress usr/share/swstress/plot/falloff.gp \
		usr/share/swstress/configs/health.conf; do
		[ -f "$root/$f" ] || fail "make install: no /$f"
	done
	ok "make install: preload, man page, completion, plots, configs, Slurm and cron examples"
	out=$(cd "$tmp" && SWS_PRELOAD_DEBUG=1 timeout 120 mpiexec -n 2 "$root/usr/bin/swstress" run allow_shared_node=yes \
		nodes=2 sizes=8 patterns=pingpong repetitions=3 --no-plot --no-history --label=inst 2>&1); rc=$?
	n=$(echo "$out" | grep -c '^finalize_preload\[')
	check_eq "installed swstress loads lib/swstress/finalize_preload.so itself (2 ranks)" "$rc:$n" "0:2"
	out=$(cd "$tmp" && SWSTRESS_PRELOAD=0 SWS_PRELOAD_DEBUG=1 timeout 120 mpiexec -n 2 "$root/usr/bin/swstress" run \
		allow_shared_node=yes nodes=2 sizes=8 patterns=pingpong repetitions=3 --no-plot --no-history --label=inst 2>&1)
	check_eq "SWSTRESS_PRELOAD=0: not loaded" "$?:$(echo "$out" | grep -c '^finalize_preload\[')" "0:0"
	make -s uninstall BUILD="$tmp/b" DESTDIR="$root" PREFIX=/usr >>"$tmp/install.log" 2>&1
	left=$(find "$root" -type f | sed "s|^$root||")
	check_eq "make uninstall: no file left" "$left" ""
else
	fail "make install" "$tmp/install.log"
fi

# --- the first local run ------------------------------------------------------
# Every shipped config plans on the even rank counts it can run (its levels
# up to 'max'); a level too big says how to fix it; run as a singleton (no
# mpiexec) says to use mpiexec; site on a missing store says so.
for conf in configs/*.conf; do
	for n in 2 4 16; do
		out=$("$SW" plan "$conf" -n "$n" 2>&1) &&
			ok "plan $conf -n $n" || fail "plan $conf -n $n: $out"
	done
done
out=$("$SW" plan configs/quick.conf -n 4 2>&1)
check_eq "plan quick.conf -n 4: the levels up to max (1 and 2 pairs)" \
	"$(echo "$out" | grep -c '^level [0-9]*: [12] pairs')" "2"
out=$("$SW" plan pairs=1,2,4 -n 4 2>&1); rc=$?
check_eq "plan pairs=1,2,4 -n 4: exit 2, the fix named" "$rc:$(echo "$out" | grep -c 'pairs=1,max')" "2:1"
out=$(env -u PMI_RANK -u PMI_FD -u PMI_PORT "$SW" run configs/quick.conf --no-plot output="$tmp/single" 2>&1); rc=$?
check_eq "run without mpiexec: exit 2, says to use mpiexec" "$rc:$(echo "$out" | grep -c 'start it as mpiexec -n 4 swstress run')" "2:1"
out=$("$SW" site "$tmp/nosuch.db" "$tmp/site" 2>&1); rc=$?
check_eq "site on a missing store: plainly, not SQLite's words" \
	"$rc:$(echo "$out" | grep -c 'no such store'):$(echo "$out" | grep -c 'unable to open')" "1:1:0"

# --- derived files: one verifier (issue #39) ------------------------------------
# plot, compare and publish refuse a summary.csv or fits.csv that is not what
# the folder's run.json and samples.csv give, naming FILE:LINE (plot drew
# both, exit 0). The run: tests/data/runs/onehost-* (2 ranks, one host).
good=tests/data/runs/onehost-20261207-202307
for f in summary.csv fits.csv; do
	name=$(basename "$good")
	rm -rf "$tmp/derived" && mkdir -p "$tmp/derived" && cp -r "$good" "$tmp/derived/$name"
	d=$tmp/derived/$name
	# the first data row's 12th field (summary: lat_median_us; fits: beta_MBps), 1.5 times itself
	awk -F, -v OFS=, '/^#/ || !h++ { print; next } !done { $(NF > 11 ? 12 : 9) = $(NF > 11 ? 12 : 9) * 1.5; done = 1 } { print }' \
		"$good/$f" > "$d/$f"
	cmp -s "$good/$f" "$d/$f" && fail "derived: $f unchanged by the test's edit"
	if command -v gnuplot >/dev/null; then
		out=$("$SW" plot "$d" 2>&1); rc=$?
		check_eq "plot with a changed $f: exit 1, FILE:LINE" "$rc:$(echo "$out" | grep -c "$f:3: not what run.json and samples.csv give")" "1:1"
	else
		skip "plot with a changed $f" "gnuplot not installed"
	fi
	out=$("$SW" compare "$d" "$good" --no-plot --output "$tmp/derived/cmp" 2>&1); rc=$?
	check_eq "compare with a changed $f: exit 1, FILE:LINE" "$rc:$(echo "$out" | grep -c "$f:3: not what")" "1:1"
	out=$("$SW" publish "$d" --store "$tmp/derived/st.sqlite" --shared-node model=M 2>&1); rc=$?
	check_eq "publish with a changed $f: exit 1, FILE:LINE" "$rc:$(echo "$out" | grep -c "$f:3: not what")" "1:1"
done

# --- guard: every night leaves its verdict (issue #39) ---------------------------
# the JSON verdict of check --json is a verdict (it was "printed no verdict");
# under cron (stderr not a terminal) the status line comes first in the file
# that holds both (five stderr lines came before it).
out=$("$SW" guard -- sh -c 'echo "{\"status\":\"WARNING\",\"code\":1}"' 2>&1); rc=$?
check_eq "guard reads the JSON verdict: its status, no UNKNOWN of its own" "$rc:$out" '1:{"status":"WARNING","code":1}'
"$SW" guard -- sh -c 'echo "swstress: 2 ranks" >&2; echo "swstress: note" >&2; echo "SWSTRESS OK - fine"; echo "swstress: after" >&2' \
	>"$tmp/guard.last" 2>&1; rc=$?
check_eq "guard >FILE 2>&1: the status line first, the stderr lines after it" "$rc:$(tr '\n' '|' <"$tmp/guard.last")" \
	"0:SWSTRESS OK - fine|swstress: 2 ranks|swstress: note|swstress: after|"
"$SW" guard -- sh -c 'echo "swstress: died" >&2; exit 1' >"$tmp/guard.last" 2>&1; rc=$?
check_eq "guard >FILE 2>&1, no verdict: its UNKNOWN line first" "$rc:$(head -n 1 "$tmp/guard.last" | cut -c1-18):$(sed -n 2p "$tmp/guard.last")" \
	"3:SWSTRESS UNKNOWN -:swstress: died"

# --- the crontab example, run as cron runs it ---------------------------------
# make install PREFIX=$tmp/prefix; the crontab's variables and command with
# its paths moved into $tmp and mpiexec on this machine; run under env -i
# (cron's empty environment) with the crontab's variables only.
prefix=$tmp/prefix work=$tmp/cronwork
mkdir -p "$work"
if make -s install PREFIX="$prefix" >"$tmp/install2.log" 2>&1; then
	vars=$(grep -E '^[A-Z]+=' configs/cron/crontab | sed "s|/usr/local|$prefix|g" | tr '\n' ' ')
	line=$(grep -E '^[0-9*]' configs/cron/crontab | cut -d' ' -f6-)
	# a quick sweep on 2 local ranks; a drop threshold of 100% no noise reaches: OK is certain
	quick="allow_shared_node=yes sizes=64KiB patterns=stream repetitions=4 warn_drop=99.9 crit_drop=100"
	cmd=$(echo "$line" | sed -e "s|/usr/local|$prefix|g" -e "s|/var/lib/swstress|$work|" \
		-e "s|/var/lib/prometheus/node-exporter|$work|" -e "s|mpiexec -f /etc/swstress/hosts -ppn 1 -n 16|mpiexec -n 2|" \
		-e "s|--baseline nightly|--baseline nightly $quick|")
	cron() { env -i $vars UCX_TLS="$UCX_TLS" sh -c "$cmd"; }
	out=$(cron 2>&1); rc=$?
	check_eq "crontab under env -i without a baseline: the UNKNOWN verdict printed (mail)" \
		"$(echo "$out" | grep -c '^SWSTRESS UNKNOWN - baseline unusable')" "1"
	(cd "$work" && env -i PATH="$prefix/bin:/usr/bin:/bin" UCX_TLS="$UCX_TLS" mpiexec -n 2 swstress run \
		"$prefix/share/swstress/configs/health.conf" $quick --label=base --no-plot >/dev/null 2>&1 &&
		env -i PATH="$prefix/bin:/usr/bin:/bin" swstress baseline set nightly results/base-* >/dev/null 2>&1) ||
		fail "cron: baseline run and baseline set"
	out=$(cron 2>&1); rc=$?
	check_eq "crontab under env -i, healthy: exit 0 and nothing printed (no mail)" "$rc:$out" "0:"
	head -n 1 "$work/check.last" | grep -q '^SWSTRESS OK' && [ -f "$work/swstress.prom" ] &&
		ok "crontab: the verdict first in check.last, the textfile written" || fail "cron: check.last $(head -n 1 "$work/check.last")"
	# retention: keep_days=1 removes an old complete folder, not the recent ones
	mkdir -p "$work/results/old-20200101-000000" && echo '{}' >"$work/results/old-20200101-000000/run.json"
	(cd "$work" && mpiexec -n 2 "$prefix/bin/swstress" run $quick keep_days=1 --label=prune --no-plot \
		>/dev/null 2>"$tmp/prune.err")
	if [ ! -e "$work/results/old-20200101-000000" ] && ls -d "$work"/results/base-* >/dev/null 2>&1 &&
		grep -q 'retention (keep_days = 1): 1 results folders' "$tmp/prune.err"; then
		ok "keep_days=1: the old results folder removed, the recent ones kept"
	else
		fail "retention: $(ls "$work/results") $(cat "$tmp/prune.err")"
	fi
	make -s uninstall PREFIX="$prefix" >/dev/null 2>&1
else
	fail "make install PREFIX" "$tmp/install2.log"
fi

t_end
