#!/bin/sh
# Run the libFuzzer targets (built by `make fuzz-build`) for SECONDS each,
# both at once at nice 19, from the committed corpus and seeds; then merge
# (minimise) what they found back into tests/fuzz/corpus/TARGET/.
#   sh tests/fuzz/run.sh [SECONDS] [TARGET...]      (from the repository root)
# Crashes: tests/fuzz/crashes/TARGET/ (libFuzzer's crash-*/leak-*/timeout-*).
# Logs: build/fuzz/TARGET.log. Exit status 1 if any target crashed.
set -u
SECONDS_EACH=${1:-600}
shift 2>/dev/null
TARGETS=${*:-config results plot compare}
F=tests/fuzz
W=build/fuzz/work
rc=0
pids=""
for t in $TARGETS; do
	mkdir -p "$W/$t" "$F/corpus/$t" "$F/crashes/$t"
	nice -n 19 build/fuzz/fuzz_$t -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		-max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
		-max_len=32768 -dict="$F/$t.dict" -artifact_prefix="$F/crashes/$t/" -print_final_stats=1 \
		"$W/$t" "$F/corpus/$t" "$F/seeds/$t" > "build/fuzz/$t.log" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || rc=1; done
for t in $TARGETS; do
	# Minimise: a fresh folder receives the inputs that add coverage.
	rm -rf "$W/$t.min" && mkdir -p "$W/$t.min"
	nice -n 19 build/fuzz/fuzz_$t -merge=1 -timeout=10 -rss_limit_mb=2048 "$W/$t.min" \
		"$F/corpus/$t" "$W/$t" "$F/seeds/$t" >> "build/fuzz/$t.log" 2>&1
	if [ -n "$(ls -A "$W/$t.min")" ]; then
		rm -rf "$F/corpus/$t" && cp -r "$W/$t.min" "$F/corpus/$t"
	fi
	echo "fuzz $t: $(ls "$F/corpus/$t" | wc -l) corpus files, $(ls "$F/crashes/$t" | wc -l) crashes;" \
		"$(grep -E 'stat::number_of_executed_units' "build/fuzz/$t.log" | tail -n 1)"
done
exit $rc
