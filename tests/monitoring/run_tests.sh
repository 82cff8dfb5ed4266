#!/bin/sh
# run_tests.sh - the monitoring an operator runs, with the real programs:
#   - Nagios 4 (Debian's nagios4-core) started with its own config in a
#     temporary folder (never the system's /etc/nagios4), the shipped
#     configs/nagios/swstress.cfg loaded: each service check forced
#     through the external command file, then status.dat read back: the
#     state Nagios recorded is swstress's exit status, the status line,
#     the long text and every perfdata item (label, value, unit,
#     thresholds) reached it; judge on prepared runs (healthy, a 15% drop,
#     a 30% drop with a slow pair, a slow port alone, a missing baseline,
#     48 cells whose perfdata continues after the long text) and guard
#     around a check whose rank is killed and one past its time limit;
#   - configs/prometheus/swstress.rules.yml: promtool check rules, the
#     unit tests in tests/monitoring/swstress.rules.test.yml, and a test
#     made here from a real --prom file (the rules' metric and label names
#     are swstress's);
#   - configs/systemd/swstress-check.{service,timer}: systemd-analyze
#     verify on a copy that points at the built binary, and the command
#     the service runs against the crontab's.
# Installs nagios4-core when root (apt-get under a lock); what cannot run
# is a SKIP with the reason.
#
#   sh tests/monitoring/run_tests.sh [nagios|prometheus|systemd ...]
#                                       (from the repository, after make)
#   KEEP=1 keeps the temporary folder (Nagios's config, logs, outputs).

set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t_begin monitoring
T_LOG_LINES=25

SW=$PWD/build/swstress
tmp=$(mktemp -d /tmp/swmon.XXXXXX) || exit 1
chmod 755 "$tmp"
nagpid=""
cleanup() {
	if [ -n "$nagpid" ]; then
		kill "$nagpid" 2>/dev/null
		i=0
		while kill -0 "$nagpid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -KILL "$nagpid" 2>/dev/null
	fi
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# need PACKAGE...: installs the missing ones when root (0 when all are there).
need() {
	missing=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || return 1
	echo "monitoring tests: installing$missing" >&2
	# shellcheck disable=SC2086
	flock /run/lock/swstress-apt.lock env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends $missing >"$tmp/apt.log" 2>&1 ||
		{ flock /run/lock/swstress-apt.lock apt-get update -q >/dev/null 2>&1 &&
		  flock /run/lock/swstress-apt.lock env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends $missing >"$tmp/apt.log" 2>&1; }
}

[ -x "$SW" ] || t_skip_all monitoring "build/swstress is missing (make first)"

# --- prepared runs (tests/health/driver.c writes them) ------------------------
fx=$tmp/fx
if ! ${CC:-cc} -O1 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude -Itests/unit -o "$tmp/driver" \
	tests/health/driver.c build/libswstress-cli.a build/libswstress.a \
	-linih -ljansson -lsqlite3 -lgsl -lgslcblas -lm 2>"$tmp/cc.log" || ! "$tmp/driver" fixtures "$fx"; then
	fail "prepared runs (tests/health/driver.c)" "$tmp/cc.log"
	t_end
	exit 1
fi

# --- Nagios ---------------------------------------------------------------------
# services: NAME EXPECTED-EXIT CHECK_COMMAND
services() {
	cat <<-EOS
	judge-ok 0 check_swstress_judge!$fx/ok!$fx/base
	judge-drop15 1 check_swstress_judge!$fx/drop15!$fx/base
	judge-drop30 2 check_swstress_judge!$fx/drop30!$fx/base
	judge-slowport 2 check_swstress_judge!$fx/slowport!$fx/base
	judge-nobaseline 3 check_swstress_judge!$fx/ok!$fx/nothing
	judge-wide 0 check_swstress_judge!$fx/wide!$fx/widebase
	guard-killed 3 check_guarded!60!mpiexec -n 2 sh $tmp/killed.sh
	guard-time-limit 3 check_guarded!2!sleep 30
	EOS
}

# command_line of a check command, $ARGn$ filled in from "cmd!a1!a2..."
command_of() {
	awk -v want="$1" -F'\t+' '
		$0 ~ /define command/ { name = ""; line = "" }
		$2 == "command_name" { name = $3 }
		$2 == "command_line" { line = $3 }
		/^}/ && name != "" && name == want { print line; exit }' "$N/swstress.cfg" "$N/objects.cfg" |
	awk -v args="$2" '{ n = split(args, a, "!"); for (i = n; i > 1; i--) gsub("\\$ARG" i - 1 "\\$", a[i]); print }'
}

nagios_tests() {
	if ! need nagios4-core; then
		skip "Nagios" "nagios4 is not installed (Debian package nagios4-core; run as root to install it)"
		return
	fi
	if [ "$(id -u)" != 0 ] || ! id nagios >/dev/null 2>&1; then
		skip "Nagios" "needs root to start nagios4 as its user nagios"
		return
	fi
	# the plugin runs as user nagios: a checkout under a folder others
	# cannot enter (e.g. mktemp -d's mode 700) cannot be run by it
	if ! su -s /bin/sh nagios -c "test -x '$SW'" </dev/null >/dev/null 2>&1; then
		skip "Nagios" "user nagios cannot run $SW (a folder above it is closed to others: chmod o+x it, or clone where others may enter)"
		return
	fi
	N=$tmp/nagios
	mkdir -p "$N/checkresults"
	printf '#!/bin/sh\n# a rank killed by SIGKILL, as the kernel OOM killer does\nkill -KILL $$\n' >"$tmp/killed.sh"
	sed "s|/usr/local/bin/swstress|$SW|g" configs/nagios/swstress.cfg >"$N/swstress.cfg"
	cat >"$N/nagios.cfg" <<-EOC
	log_file=$N/nagios.log
	cfg_file=$N/swstress.cfg
	cfg_file=$N/objects.cfg
	object_cache_file=$N/objects.cache
	precached_object_file=$N/objects.precache
	status_file=$N/status.dat
	status_update_interval=1
	state_retention_file=$N/retention.dat
	retain_state_information=0
	lock_file=$N/nagios.lock
	temp_file=$N/nagios.tmp
	temp_path=$N
	check_result_path=$N/checkresults
	check_external_commands=1
	command_file=$N/nagios.cmd
	query_socket=$N/nagios.qh
	nagios_user=nagios
	nagios_group=nagios
	use_syslog=0
	log_initial_states=0
	enable_notifications=0
	enable_flap_detection=0
	enable_event_handlers=0
	process_performance_data=0
	check_for_orphaned_services=0
	check_service_freshness=0
	check_host_freshness=0
	interval_length=60
	max_service_check_spread=1440
	service_check_timeout=20
	service_check_timeout_state=c
	check_result_reaper_frequency=1
	check_workers=2
	EOC
	{
		printf 'define timeperiod {\n\ttimeperiod_name\talways\n\talias\talways\n'
		printf '\tmonday\t00:00-24:00\n\ttuesday\t00:00-24:00\n\twednesday\t00:00-24:00\n\tthursday\t00:00-24:00\n'
		printf '\tfriday\t00:00-24:00\n\tsaturday\t00:00-24:00\n\tsunday\t00:00-24:00\n}\n'
		printf 'define contact {\n\tcontact_name\tnobody\n\thost_notifications_enabled\t0\n'
		printf '\tservice_notifications_enabled\t0\n\thost_notification_period\talways\n'
		printf '\tservice_notification_period\talways\n\thost_notification_options\tn\n'
		printf '\tservice_notification_options\tn\n\thost_notification_commands\tnothing\n'
		printf '\tservice_notification_commands\tnothing\n}\n'
		printf 'define command {\n\tcommand_name\tnothing\n\tcommand_line\t/bin/true\n}\n'
		# guard around any command (the test's stand-ins for a check)
		printf 'define command {\n\tcommand_name\tcheck_guarded\n\tcommand_line\t%s guard --time-limit $ARG1$ -- $ARG2$\n}\n' "$SW"
		printf 'define host {\n\thost_name\tfabric\n\taddress\t127.0.0.1\n\tcheck_command\tnothing\n'
		printf '\tmax_check_attempts\t1\n\tcheck_period\talways\n\tcontacts\tnobody\n\tnotification_period\talways\n}\n'
		services | while read -r name want cmd; do
			printf 'define service {\n\tuse\tswstress-service\n\thost_name\tfabric\n\tservice_description\t%s\n' "$name"
			printf '\tcheck_command\t%s\n\tcheck_period\talways\n\tcontacts\tnobody\n\tnotification_period\talways\n}\n' "$cmd"
		done
	} >"$N/objects.cfg"
	chown -R nagios:nagios "$tmp"
	if /usr/sbin/nagios4 -v "$N/nagios.cfg" >"$N/verify.log" 2>&1; then
		ok "nagios4 -v accepts configs/nagios/swstress.cfg and the test's objects"
	else
		fail "nagios4 -v" "$N/verify.log"
		return
	fi
	# as its service starts it: an empty environment
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin /usr/sbin/nagios4 -d "$N/nagios.cfg" >"$N/start.log" 2>&1
	i=0
	while [ $i -lt 100 ] && ! { [ -p "$N/nagios.cmd" ] && [ -s "$N/nagios.lock" ] && [ -s "$N/status.dat" ]; }; do
		sleep 0.1; i=$((i + 1))
	done
	nagpid=$(cat "$N/nagios.lock" 2>/dev/null)
	if [ -z "$nagpid" ] || ! kill -0 "$nagpid" 2>/dev/null || [ ! -p "$N/nagios.cmd" ]; then
		cat "$N/start.log" >>"$N/nagios.log" 2>/dev/null
		fail "nagios4 started (pid file, command file, status.dat within 10 s)" "$N/nagios.log"
		nagpid=""
		return
	fi
	ok "nagios4 running as pid $nagpid with its own config in $N"
	t0=$(date +%s)
	services | while read -r name want cmd; do
		printf '[%s] SCHEDULE_FORCED_SVC_CHECK;fabric;%s;%s\n' "$t0" "$name" "$t0"
	done >"$N/nagios.cmd"
	# every service checked after t0 (bounded: the slowest is the 2 s time limit)
	nsvc=$(services | wc -l)
	i=0
	while [ $i -lt 300 ]; do
		done_=$(awk -v t0="$t0" '/servicestatus {/ { c = 0; l = 0 } /has_been_checked=1/ { c = 1 }
			/last_check=/ { split($0, a, "="); l = a[2] } /^\t}/ && c && l >= t0 { n++ } END { print n + 0 }' "$N/status.dat")
		[ "$done_" -ge "$nsvc" ] && break
		sleep 0.1; i=$((i + 1))
	done
	if [ "$done_" -ge "$nsvc" ]; then
		ok "all $nsvc forced checks ran and reached status.dat in $(awk "BEGIN { print $i / 10 }") s"
	else
		fail "forced checks: $done_ of $nsvc in status.dat after 30 s" "$N/nagios.log"
	fi
	# each state, status line, long text and perfdata against the plugin run by hand
	services >"$N/services"
	while read -r name want cmd; do
		line=$(command_of "${cmd%%!*}" "$cmd")
		su -s /bin/sh nagios -c "$line" >"$N/$name.out" 2>/dev/null </dev/null
		rc=$?
		if [ "$rc" != "$want" ]; then
			fail "Nagios $name: the plugin itself exited $rc, want $want: $(head -c 200 "$N/$name.out")"
		elif python3 tests/monitoring/nagios_status.py compare "$N/status.dat" fabric "$name" "$N/$name.out" "$rc" \
			>"$N/$name.cmp" 2>&1; then
			ok "Nagios $name: $(cat "$N/$name.cmp")"
		else
			fail "Nagios $name: what Nagios recorded differs from the plugin's output" "$N/$name.cmp"
		fi
	done <"$N/services"
	echo "  status.dat, service judge-drop30 (trimmed):"
	python3 tests/monitoring/nagios_status.py show "$N/status.dat" fabric judge-drop30 | sed 's/^/  /'
	kill "$nagpid"
	i=0
	while kill -0 "$nagpid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if kill -0 "$nagpid" 2>/dev/null; then fail "nagios4 did not stop within 10 s of SIGTERM"; else nagpid=""; fi
}

# --- Prometheus rules ---------------------------------------------------------------
# series_from_prom PROM: a promtool input_series list of every sample in a
# --prom file, as node_exporter would serve it (instance and job added),
# the timestamp moved to 0 (promtool's clock starts there).
series_from_prom() {
	awk '/^#/ || NF != 2 { next }
		{ name = $1; labels = ""; i = index(name, "{")
		  if (i) { labels = substr(name, i + 1, length(name) - i - 1); name = substr(name, 1, i - 1) }
		  v = $2; if (name == "swstress_last_run_timestamp_seconds") v = 0
		  if (v == "+Inf") v = "Inf"
		  printf "      - series: '\''%s{instance=\"fabric01:9100\",job=\"node\"%s%s}'\''\n", name, labels == "" ? "" : ",", labels
		  printf "        values: '\''%sx1620'\''\n", v }' "$1"
}

prometheus_tests() {
	if ! command -v promtool >/dev/null 2>&1; then
		skip "Prometheus rules" "promtool is not installed (Debian package prometheus)"
		return
	fi
	P=$tmp/prom
	mkdir -p "$P"
	rules=configs/prometheus/swstress.rules.yml
	if promtool check rules "$rules" >"$P/check.log" 2>&1 && grep -q "SUCCESS: 7 rules found" "$P/check.log"; then
		ok "promtool check rules: 7 rules"
	else
		fail "promtool check rules $rules" "$P/check.log"
	fi
	if promtool test rules tests/monitoring/swstress.rules.test.yml >"$P/unit.log" 2>&1; then
		ok "promtool test rules: every alert fires and stays quiet on recorded series"
	else
		fail "promtool test rules tests/monitoring/swstress.rules.test.yml" "$P/unit.log"
	fi
	# the unit tests can fail: the same tests on rules with the limits moved
	sed -e 's/== 2$/== 1/' -e 's/> 25 \* 3600/> 23 * 3600/' "$rules" >"$P/wrong.rules.yml"
	sed "s|../../configs/prometheus/swstress.rules.yml|$P/wrong.rules.yml|" tests/monitoring/swstress.rules.test.yml \
		>"$P/wrong.test.yml"
	if promtool test rules "$P/wrong.test.yml" >"$P/wrong.log" 2>&1; then
		fail "promtool test rules passed on rules with wrong limits" "$P/wrong.log"
	else
		ok "promtool test rules fails on rules with wrong limits ($(grep -c 'alertname:' "$P/wrong.log") failed expectations)"
	fi
	# A real --prom file (a 30% drop, suspect ports node07 and node08): the
	# alerts that fire on it are those the verdict says, with swstress's names.
	"$SW" judge "$fx/drop30" --baseline "$fx/base" --no-history --prom "$P/drop30.prom" >/dev/null 2>&1
	firing() {
		cat <<-EOT
		          - labels: 'ALERTS{alertname="SwstressFabricCritical",alertstate="firing",severity="critical",instance="fabric01:9100",job="node"}'
		            value: 1
		          - labels: 'ALERTS{alertname="SwstressSuspectPort",alertstate="firing",severity="critical",instance="fabric01:9100",job="node",host="node07"}'
		            value: 1
		          - labels: 'ALERTS{alertname="SwstressSuspectPort",alertstate="firing",severity="critical",instance="fabric01:9100",job="node",host="node08"}'
		            value: 1
		          - labels: 'ALERTS{alertname="SwstressCellCritical",alertstate="firing",severity="critical",instance="fabric01:9100",job="node",pattern="stream",size_bytes="65536",nodes="8"}'
		            value: 1
		EOT
	}
	{
		printf 'rule_files:\n  - %s/%s\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n' "$PWD" "$rules"
		series_from_prom "$P/drop30.prom"
		printf '    promql_expr_test:\n'
		printf '      - expr: ALERTS{alertstate="firing"}\n        eval_time: 90m\n        exp_samples:\n'
		firing
		printf '      - expr: ALERTS{alertstate="firing"}\n        eval_time: 26h\n        exp_samples:\n'
		firing
		printf '          - labels: '\''ALERTS{alertname="SwstressCheckStale",alertstate="firing",severity="warning",instance="fabric01:9100",job="node"}'\''\n            value: 1\n'
	} >"$P/real.test.yml"
	nseries=$(grep -c '^      - series:' "$P/real.test.yml")
	if [ "$nseries" -gt 100 ] && grep -q '^swstress_check_status 2$' "$P/drop30.prom" &&
		promtool test rules "$P/real.test.yml" >"$P/real.log" 2>&1; then
		ok "rules on a real --prom file ($nseries series): CRITICAL, suspect ports node07 and node08, the 8-node 64KiB stream cell; stale after 26 h; nothing else"
	else
		fail "rules on a real --prom file ($nseries series)" "$P/real.log"
	fi
	# what fired, as promtool shows it: the same test expecting nothing
	awk '/exp_samples:/ { print; print "          []"; skip = 1; next } skip && /^          / { next } { skip = 0; print }' \
		"$P/real.test.yml" >"$P/none.test.yml"
	if promtool test rules "$P/none.test.yml" >"$P/none.log" 2>&1; then
		fail "rules on a real --prom file: nothing fired"
	else
		echo "  a fired alert (promtool test rules, expecting none at 90m):"
		grep -m 1 'got:' "$P/none.log" | sed 's/, {/\n{/g' | grep -m 1 'SwstressSuspectPort' |
			sed -e 's/^ *got: //' -e 's/^/    /'
	fi
}

# --- systemd units ----------------------------------------------------------------
systemd_tests() {
	if ! need systemd man-db; then
		skip "systemd units" "systemd-analyze or man is not installed (Debian packages systemd, man-db; run as root)"
		return
	fi
	S=$tmp/systemd
	mkdir -p "$S/units"
	# installed as make install does, into a temporary PREFIX
	if ! make -s install PREFIX="$S/prefix" >"$S/install.log" 2>&1; then
		fail "make install PREFIX=$S/prefix" "$S/install.log"
		return
	fi
	for u in swstress-check.service swstress-check.timer; do
		if [ -f "$S/prefix/share/swstress/systemd/$u" ]; then
			sed "s|/usr/local/|$S/prefix/|g" "$S/prefix/share/swstress/systemd/$u" >"$S/units/$u"
		else
			fail "make install did not install share/swstress/systemd/$u"
		fi
	done
	for f in nagios/swstress.cfg prometheus/swstress.rules.yml; do
		[ -f "$S/prefix/share/swstress/$f" ] || fail "make install did not install share/swstress/$f"
	done
	( cd "$S/units" && MANPATH=$S/prefix/share/man systemd-analyze verify swstress-check.service swstress-check.timer ) \
		>"$S/verify.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$S/verify.log" ]; then
		ok "systemd-analyze verify: both units, ExecStart and the man page found, nothing to say"
	else
		fail "systemd-analyze verify (exit $rc)" "$S/verify.log"
	fi
	# verify can fail: a misspelt key and a missing program
	sed -e 's/^TimeoutStartSec=/TimeoutStartSecs=/' -e "s|^ExecStart=[^ ]*|ExecStart=$S/nothing|" \
		"$S/units/swstress-check.service" >"$S/units/broken.service"
	( cd "$S/units" && MANPATH=$S/prefix/share/man systemd-analyze verify broken.service ) >"$S/broken.log" 2>&1
	if grep -q "TimeoutStartSecs" "$S/broken.log" && grep -q "$S/nothing" "$S/broken.log"; then
		ok "systemd-analyze verify names a misspelt key and a missing program"
	else
		fail "systemd-analyze verify missed a misspelt key or a missing program" "$S/broken.log"
	fi
	# the timer: every night at 02:00, as the crontab
	next=$(systemd-analyze calendar "$(sed -n 's/^OnCalendar=//p' configs/systemd/swstress-check.timer)" 2>&1 |
		sed -n 's/^ *Next elapse: [A-Za-z]* [0-9-]* //p')
	cron_time=$(awk '/^[0-9]/ { printf "%02d:%02d:00", $2, $1; exit }' configs/cron/crontab)
	if [ -n "$next" ] && [ "${next% *}" = "$cron_time" ]; then
		ok "the timer elapses at $cron_time, when the crontab runs the check"
	else
		fail "the timer elapses at '$next', the crontab at $cron_time"
	fi
	# the service runs the crontab's command with the crontab's PATH
	cron_cmd=$(sed -n 's/^[0-9].* && \(swstress guard .*\) >check\.last.*/\1/p' configs/cron/crontab)
	cron_dir=$(sed -n 's/^[0-9].* cd \([^ ]*\) && .*/\1/p' configs/cron/crontab)
	svc_cmd=$(sed -n 's|^ExecStart=/usr/local/bin/||p' configs/systemd/swstress-check.service)
	svc_dir=$(sed -n 's/^WorkingDirectory=//p' configs/systemd/swstress-check.service)
	cron_path=$(sed -n 's/^PATH=//p' configs/cron/crontab)
	svc_path=$(sed -n 's/^Environment=PATH=//p' configs/systemd/swstress-check.service)
	if [ -n "$cron_cmd" ] && [ "$svc_cmd" = "$cron_cmd" ] && [ "$svc_dir" = "$cron_dir" ] && [ "$svc_path" = "$cron_path" ]; then
		ok "the service runs the crontab's check (guard, --time-limit, in $svc_dir, PATH=$svc_path)"
	else
		fail "the service and the crontab differ: '$svc_cmd' in '$svc_dir' PATH=$svc_path, cron '$cron_cmd' in '$cron_dir' PATH=$cron_path"
	fi
	# systemd's backstop above the guard's time limit and its 5 s from TERM to KILL
	limit=$(printf '%s\n' "$svc_cmd" | sed -n 's/.*--time-limit \([0-9]*\).*/\1/p')
	tss=$(sed -n 's/^TimeoutStartSec=//p' configs/systemd/swstress-check.service)
	if [ -n "$limit" ] && [ -n "$tss" ] && [ "$tss" -gt $((limit + 5)) ]; then
		ok "TimeoutStartSec=$tss is above the guard's --time-limit $limit + 5 s"
	else
		fail "TimeoutStartSec='$tss' is not above --time-limit '$limit' + 5 s"
	fi
}

for part in ${*:-nagios prometheus systemd}; do
	case $part in
	nagios | prometheus | systemd) "${part}_tests" ;;
	*) fail "no part '$part' (nagios, prometheus, systemd)" ;;
	esac
done
t_end
