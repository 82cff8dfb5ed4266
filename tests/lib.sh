# tests/lib.sh - the one test library every shell suite sources (run from
# the repository root): one way to say ok, fail and skip with a reason, and
# one closing line.
#
#   . tests/lib.sh
#   t_begin "fabric"          # the suite's title, printed in the closing line
#   ok "what held"            # "ok   - what held"
#   fail "what did not" [LOG] # "FAIL - what did not", then LOG's last lines
#   skip "what" "why"         # "SKIP - what: why" (counted as skipped, never passed)
#   t_end                     # "fabric: took T s", then the closing line
#                             # "fabric: N passed, N failed, N skipped";
#                             # returns 1 when a check failed
#
# The title is one word (CI reads the closing line: one word and a colon at
# most before the counts).
#
# t_skip_all TITLE WHY ends a suite that cannot run here at all (not root, a
# package missing): one SKIP line, the closing line with 1 skipped, exit 0.
# A suite may set T_LOG_LINES (default 15) for how much of a log a failure
# shows.

T_PASS=0
T_FAIL=0
T_SKIP=0
T_TITLE=${T_TITLE:-tests}
T_START=$(date +%s.%N)

t_begin() { T_TITLE=$1; T_START=$(date +%s.%N); }

ok() { T_PASS=$((T_PASS + 1)); echo "ok   - $1"; }

fail() {
	T_FAIL=$((T_FAIL + 1))
	echo "FAIL - $1"
	if [ -n "${2:-}" ] && [ -f "$2" ]; then
		tail -n "${T_LOG_LINES:-15}" "$2" | sed 's/^/       /'
	fi
	return 0
}

skip() {
	T_SKIP=$((T_SKIP + 1))
	if [ -n "${2:-}" ]; then echo "SKIP - $1: $2"; else echo "SKIP - $1"; fi
}

# check NAME COMMAND...: ok when the command succeeds, else fail.
check() {
	t_name=$1
	shift
	if "$@"; then ok "$t_name"; else fail "$t_name"; fi
}

t_elapsed() { echo "$(date +%s.%N) $T_START" | awk '{printf "%.1f", $1 - $2}'; }

t_end() {
	echo "$T_TITLE: took $(t_elapsed) s"
	echo "$T_TITLE: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
	[ "$T_FAIL" -eq 0 ]
}

t_skip_all() {
	T_TITLE=$1
	skip "$1" "$2"
	t_end
	exit 0
}
