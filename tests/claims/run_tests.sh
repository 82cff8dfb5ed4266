#!/bin/sh
# The end-to-end claims suite (issue 40 item 5, issue 41 item 6): run
# folders simulated with a known truth (tests/claims/sim.py, Python 3
# standard library, no code shared with src/) pushed through the command
# line (report, compare, baseline set, judge), counting what a user reads:
# every significant statement of compare, every page of judge, whether a
# level's printed change covers the truth and how far one 1000x sample
# moves it. One line a figure: the rate, n, the target, the verdict. A
# figure fails only when an exact one-sided binomial test rejects its
# target at p < 0.001 (seeded: the same datasets every time).
#
#   sh tests/claims/run_tests.sh                  fast (make claims-test)
#   CLAIMS_FULL=1 sh tests/claims/run_tests.sh    more datasets and the table
#                                                 of every figure with its
#                                                 Wilson 95% interval (make bench)
#   SW=/path/to/swstress sh tests/claims/run_tests.sh    another binary
#   CLAIMS_ONLY=compare-same-1run,judge-2pct ...  some scenarios only
#                                                 (python3 tests/claims/claims.py --list)
#   CLAIMS_N=200 ...                              datasets a scenario
#   CLAIMS_SEED=2 ...                             other datasets
set -u
. tests/lib.sh
t_begin claims
SW=${SW:-build/swstress}
export SW
command -v python3 > /dev/null || t_skip_all claims "no python3"
[ -x "$SW" ] || t_bail "claims: $SW is not an executable (make all, or SW=path)"
t_tmpdir claims
full=
[ -n "${CLAIMS_FULL:-}" ] && full=--full
CLAIMS_TMP=$T_TMP/runs nice python3 tests/claims/claims.py $full "$T_TMP/figures" 2> "$T_TMP/log"
rc=$?
[ -n "$full" ] && cat "$T_TMP/log"
[ $rc -eq 0 ] || t_bail "claims.py ended with exit $rc" "$T_TMP/log"
while IFS="$(printf '\t')" read -r verdict text; do
	case $verdict in
	pass) ok "$text" ;;
	fail) fail "$text" ;;
	info) echo "info - $text" ;;
	*) skip "$text" "no dataset" ;;
	esac
done < "$T_TMP/figures"
t_end
