#!/bin/sh
# cluster.sh - a real Slurm cluster on the emulated fabric's hosts, for tests.
#
#   cluster.sh up DIR      munged, slurmctld (root namespace), one slurmd per
#                          fabric host; everything (config, key, sockets,
#                          spools, logs, pids) under DIR
#   cluster.sh down DIR    stop them (by their pid files) and every process
#                          left in the hosts' namespaces
#   cluster.sh env DIR     the environment the client commands need (eval it)
#
# The fabric must be up (tests/fabric/fabric.sh up single N) and the caller
# holds the fabric lock. Root only. Debian's slurmctld, slurmd, slurm-client
# and munge (22.05 on Debian 12):
#   - slurmctld runs in the root namespace; SlurmctldHost names this machine
#     with the management address the hosts reach, 10.77.1.254;
#   - each slurmd runs inside its host's network namespace with its own UTS
#     namespace and host name (as Hydra's launcher.sh does), `slurmd -N HOST`,
#     spool, pid and log paths with %n; NodeAddr is the host's management
#     address;
#   - munged with a fresh key on a private socket (AuthInfo=socket=...); a
#     path-bound Unix socket is reachable from every network namespace;
#   - private ports (SLURM_PORT_BASE, default 16817 and 16818), no
#     accounting, cgroup v1 plugin (this VM's hybrid cgroup mounts),
#     proctrack/linuxproc, select/linear, scrontab enabled.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
FABRIC=$DIR/../fabric/fabric.sh
PORT=${SLURM_PORT_BASE:-16817}
MGMT_ROOT=10.77.1.254

die() { echo "cluster: $*" >&2; exit 1; }

hosts() { sh "$FABRIC" hosts | tr ',' ' '; }

write_conf() {   # DIR
	d=$1
	mkdir -p "$d/ctld" "$d/d" "$d/munge" || return 1
	chmod 700 "$d/munge"
	{
		echo "ClusterName=swstress"
		echo "SlurmctldHost=$(hostname)($MGMT_ROOT)"
		echo "SlurmctldPort=$PORT"
		echo "SlurmdPort=$((PORT + 1))"
		echo "SlurmUser=root"
		echo "SlurmdUser=root"
		echo "AuthType=auth/munge"
		echo "AuthInfo=socket=$d/munge/munge.sock"
		echo "CredType=cred/munge"
		echo "StateSaveLocation=$d/ctld"
		echo "SlurmctldPidFile=$d/ctld.pid"
		echo "SlurmctldLogFile=$d/ctld.log"
		echo "SlurmdSpoolDir=$d/d/%n"
		echo "SlurmdPidFile=$d/d/%n.pid"
		echo "SlurmdLogFile=$d/d/%n.log"
		echo "ProctrackType=proctrack/linuxproc"
		echo "TaskPlugin=task/none"
		echo "SelectType=select/linear"
		echo "SchedulerType=sched/backfill"
		echo "MpiDefault=none"
		echo "ReturnToService=2"
		echo "MailProg=/bin/true"
		echo "AccountingStorageType=accounting_storage/none"
		echo "JobCompType=jobcomp/none"
		echo "ScronParameters=enable"
		echo "SlurmdTimeout=30"
		echo "InactiveLimit=0"
		echo "KillWait=5"
		i=1
		for h in $(hosts); do
			echo "NodeName=$h NodeAddr=10.77.1.$i CPUs=1 State=UNKNOWN"
			i=$((i + 1))
		done
		echo "PartitionName=fabric Nodes=ALL Default=YES MaxTime=30 State=UP OverSubscribe=EXCLUSIVE"
	} > "$d/slurm.conf"
	printf 'CgroupPlugin=cgroup/v1\nCgroupMountpoint=/sys/fs/cgroup\n' > "$d/cgroup.conf"
}

do_env() {
	echo "SLURM_CONF=$1/slurm.conf; export SLURM_CONF"
}

do_up() {
	d=$1
	[ "$(id -u)" = 0 ] || die "must run as root"
	for p in slurmctld slurmd munged mungekey; do
		command -v $p >/dev/null 2>&1 || [ -x /usr/sbin/$p ] || die "$p not installed"
	done
	[ -n "$(hosts)" ] || die "the fabric is not up"
	write_conf "$d" || die "cannot write $d"
	export SLURM_CONF=$d/slurm.conf
	# The daemons outlive this script: they must not inherit the fabric lock
	# (run_tests.sh holds it on descriptor 9), or a daemon left behind would
	# hold it for ever.
	/usr/sbin/mungekey --create --keyfile="$d/munge/munge.key" --force >/dev/null 2>&1 ||
		die "mungekey failed"
	chmod 400 "$d/munge/munge.key"
	/usr/sbin/munged --force --socket="$d/munge/munge.sock" --key-file="$d/munge/munge.key" \
		--pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" --seed-file="$d/munge/seed" 9>&- ||
		die "munged did not start: $(tail -n 3 "$d/munge/munged.log" 2>/dev/null)"
	/usr/sbin/slurmctld -f "$d/slurm.conf" -i 9>&- || die "slurmctld did not start: $(tail -n 5 "$d/ctld.log")"
	for h in $(hosts); do
		ip netns exec "$h" unshare --uts sh -c "hostname $h; exec /usr/sbin/slurmd -f '$d/slurm.conf' -N $h" 9>&- ||
			die "slurmd on $h did not start: $(tail -n 5 "$d/d/$h.log" 2>/dev/null)"
	done
	# every node idle within 60 s
	i=0
	while [ $i -lt 120 ]; do
		n=$(sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)
		[ "$n" -eq "$(hosts | wc -w)" ] && return 0
		sleep 0.5
		i=$((i + 1))
	done
	sinfo -N >&2
	die "not every node came up idle in 60 s"
}

stop_pidfile() {   # FILE: TERM, then KILL after 10 s
	[ -s "$1" ] || return 0
	p=$(cat "$1")
	kill "$p" 2>/dev/null || return 0
	i=0
	while kill -0 "$p" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	kill -9 "$p" 2>/dev/null
	return 0
}

do_down() {
	d=$1
	export SLURM_CONF=$d/slurm.conf
	[ -f "$SLURM_CONF" ] && timeout 10 scancel --full --quiet --user=root 2>/dev/null
	for f in "$d"/d/*.pid; do stop_pidfile "$f"; done
	stop_pidfile "$d/ctld.pid"
	# job steps (slurmstepd and their tasks) left in the hosts' namespaces
	for h in $(hosts); do
		pids=$(timeout 10 ip netns pids "$h" 2>/dev/null)
		[ -n "$pids" ] && kill -9 $pids 2>/dev/null
	done
	stop_pidfile "$d/munge/munged.pid"
	return 0
}

case ${1:-} in
up) [ $# -eq 2 ] || die "usage: cluster.sh up DIR"; do_up "$2" ;;
down) [ $# -eq 2 ] || die "usage: cluster.sh down DIR"; do_down "$2" ;;
env) [ $# -eq 2 ] || die "usage: cluster.sh env DIR"; do_env "$2" ;;
*) sed -n '4,9p' "$0" | sed 's/^# //' >&2; exit 2 ;;
esac
