#!/bin/sh
# tests/docs/check.sh [BIN] - the documentation against the tree (docs.py):
# links and images resolve, every config key is in configs/README.md, every
# command of --help is in the README's table, the README at most 400 lines;
# every swstress command in the README's code blocks parses (commands.py).
# Then the check's self-test: a copy of the docs with one planted defect
# each must fail with the line that names it.
set -u
. tests/lib.sh
t_begin docs
BIN=${1:-build/swstress}
t_tmpdir docs
[ -x "$BIN" ] || t_bail "no $BIN (make build/swstress)"
"$BIN" --help > "$T_TMP/help" 2>&1 || t_bail "$BIN --help failed" "$T_TMP/help"

if python3 tests/docs/docs.py . "$T_TMP/help" > "$T_TMP/out" 2>&1; then
	ok "links, config keys, commands and the README's length"
else
	fail "the documentation" "$T_TMP/out"
fi

# Every swstress command of the README's code blocks parses: a command
# of --help and its options (commands.py); a planted wrong option fails.
if python3 tests/docs/commands.py README.md "$BIN" > "$T_TMP/cmds" 2> "$T_TMP/cmdn"; then
	ok "the README's $(cat "$T_TMP/cmdn"): commands and options of --help"
else
	fail "the README's commands" "$T_TMP/cmds"
fi
printf '    build/swstress report --nosuch results/x\n' > "$T_TMP/bad.md"
check_eq "planted: a README command with an unknown option" \
	"$(python3 tests/docs/commands.py "$T_TMP/bad.md" "$BIN" 2>/dev/null)" \
	"$T_TMP/bad.md:1: swstress report --nosuch: no such option"

# Every estimate the docs quote as "`swstress plan configs/X.conf -n N`
# estimates T s (up to U s)", or with " --cores C" after N, is what plan
# prints (issue #27: the README said 60 s where plan said 1 s). quotes
# DIR: the quotes that differ.
quotes() {
	grep -rhoE '`swstress plan configs/[a-z]+\.conf -n [0-9]+( --cores [0-9]+)?` estimates [0-9.]+ s( \(up to [0-9.]+ s\))?' \
		--include='*.md' --include='*.conf' "$1/README.md" "$1/configs" "$1/results" "$1/plot" "$1/tests/README.md" |
	sort -u | while read -r q; do
		conf=$(echo "$q" | sed 's/^`swstress plan \([^ ]*\) -n .*/\1/')
		args=$(echo "$q" | sed 's/^`swstress plan [^ ]* \(-n [^`]*\)`.*/\1/')
		want=$(echo "$q" | sed 's/.*` estimates //')
		# shellcheck disable=SC2086 # args: "-n N" or "-n N --cores C"
		got=$("$BIN" plan -c "$1/$conf" $args 2>&1 | sed -n 's/^estimated time: //p')
		[ "$got" = "$want" ] || echo "$conf $args: the docs say $want, plan says $got"
	done
}
n=$(quotes . | tee "$T_TMP/quotes" | wc -l)
nq=$(grep -rhoE '`swstress plan configs/[a-z]+\.conf -n [0-9]+( --cores [0-9]+)?` estimates' --include='*.md' --include='*.conf' \
	README.md configs results plot tests/README.md | sort -u | wc -l)
if [ "$n" = 0 ] && [ "$nq" -ge 3 ]; then ok "the $nq estimates the docs quote are what plan prints"
else fail "quoted estimates ($nq found): $(cat "$T_TMP/quotes")"; fi

# planted WHAT PATTERN SED-SCRIPT FILE: the docs with FILE edited by the sed
# script must fail, with a line matching PATTERN.
planted() {
	rm -rf "$T_TMP/p"
	mkdir -p "$T_TMP/p/src"
	cp src/config.c "$T_TMP/p/src/"
	find . -name '*.md' -not -path './.git/*' -not -path './build/*' -not -path './tests/fuzz/*' | while read -r f; do
		mkdir -p "$T_TMP/p/$(dirname "$f")"
		cp "$f" "$T_TMP/p/$f"
	done
	cp -r plot/examples "$T_TMP/p/plot/"
	sed -i "$3" "$T_TMP/p/$4"
	if python3 tests/docs/docs.py "$T_TMP/p" "$T_TMP/help" > "$T_TMP/pout" 2>&1; then
		fail "planted: $1 passed"
	elif grep -q "$2" "$T_TMP/pout"; then
		ok "planted: $1"
	else
		fail "planted: $1: not named" "$T_TMP/pout"
	fi
}
planted "a link to a missing file" "^README.md: link nosuch.md: no such file$" \
	'1a [x](nosuch.md)' README.md
planted "a link to a missing heading" "^README.md: link configs/README.md#nosuch: no heading #nosuch in configs/README.md$" \
	'1a [x](configs/README.md#nosuch)' README.md
planted "a link out of the repository" "^README.md: link ../README.md: outside the repository$" \
	'1a [x](../README.md)' README.md
planted "a config key not documented" "^configs/README.md: config key sample_time is not documented$" \
	'/sample_time/d' configs/README.md
planted "a command not in the README" "^README.md: command guard of --help has no row in the command table$" \
	'/^| `guard /d' README.md
planted "a README not starting with its title" "^README.md: starts with 'make run', not its title" \
	'1i make run' README.md
planted "make test below the README's first lines" "^README.md: 'make test' is not in its first 8 lines" \
	'/^    make test /d' README.md
planted "a README over 400 lines" "^README.md: [0-9]* lines, more than 400" \
	'$ r configs/README.md' README.md
mkdir -p "$T_TMP/q/configs"
cp configs/*.conf "$T_TMP/q/configs/"
: > "$T_TMP/q/README.md"
sed -i 's/configs\/health.conf -n 16` estimates 5 s/configs\/health.conf -n 16` estimates 60 s/' "$T_TMP/q/configs/health.conf"
check_eq "planted: a quoted estimate plan does not print" "$(quotes "$T_TMP/q" 2>/dev/null)" \
	"configs/health.conf -n 16: the docs say 60 s (up to 8 s), plan says 5 s (up to 8 s)"
t_end
