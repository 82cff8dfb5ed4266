# tests/lib.sh - the one test library every shell suite sources (run from
# the repository root): one way to say ok, fail and skip with a reason, and
# one closing line.
#
#   . tests/lib.sh
#   t_begin "fabric"          # the suite's title, printed in the closing line
#   ok "what held"            # "ok   - what held"
#   fail "what did not" [LOG] # "FAIL - what did not", then LOG's last lines
#   skip "what" "why"         # "SKIP - what: why" (counted as skipped, never passed)
#   check "what" CMD...       # ok when CMD succeeds, else fail
#   check_eq "what" GOT WANT  # ok when GOT = WANT, else "FAIL - what: got 'GOT', want 'WANT'"
#   t_end                     # "fabric: took T s", then the closing line
#                             # "fabric: N passed, N failed, N skipped";
#                             # returns 1 when a check failed
#
# The title is one word (CI reads the closing line: one word and a colon at
# most before the counts). A suite ends with t_end as its last command, so
# that its exit status is non-zero exactly when a check failed.
#
# t_skip_all TITLE WHY ends a suite that cannot run here at all (not root, a
# package missing): one SKIP line, the closing line with 1 skipped, exit 0.
# t_bail WHAT [LOG] ends it where nothing after a failure can run (a build
# or a set-up failed): that failure, the closing line, exit 1.
# A suite may set T_LOG_LINES (default 15) for how much of a log a failure
# shows.
#
# t_tmpdir NAME makes the suite's private folder T_TMP
# (/tmp/swstress-NAME.XXXXXX) and removes it at exit, after t_cleanup (a
# suite redefines it to stop what it started: servers, mounts, a fabric).
# T_KEEP=1 in the environment keeps the folder and says where. INT, TERM
# and HUP end the suite with exit 130, through the same cleanup.

T_PASS=0
T_FAIL=0
T_SKIP=0
T_TITLE=${T_TITLE:-tests}
T_START=$(date +%s.%N)
T_TMP=

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

# check_eq NAME GOT WANT: ok when the two strings are equal, else fail
# saying both.
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: got '$2', want '$3'"; fi
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

t_bail() {
	fail "$@"
	t_end
	exit 1
}

# The suite's own cleanup, run at exit before its folder goes.
t_cleanup() { :; }

t_exit() {
	t_cleanup
	[ -n "$T_TMP" ] || return 0
	if [ -n "${T_KEEP:-}" ]; then echo "$T_TITLE: kept $T_TMP" >&2; else rm -rf "$T_TMP"; fi
}

t_tmpdir() {
	T_TMP=$(mktemp -d "/tmp/swstress-$1.XXXXXX") || t_bail "mktemp -d /tmp/swstress-$1.XXXXXX"
	trap t_exit EXIT
	trap 'exit 130' INT TERM HUP
}
