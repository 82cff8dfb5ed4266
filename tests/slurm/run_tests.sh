#!/bin/sh
# run_tests.sh - swstress under a real Slurm cluster (make slurm-test): the
# emulated fabric's 8 hosts as Slurm nodes (cluster.sh), Debian's slurmctld,
# slurmd, slurm-client and munge (installed here when missing).
#   - srun --mpi=pmi2 starts Debian's MPICH: 8 ranks, one per node, each on
#     its own host (run.json), exit 0;
#   - the shipped configs/slurm/swstress-check.sbatch through sbatch, with
#     srun --mpi=pmi2 and with mpiexec inside the allocation: the job's exit
#     code (scontrol) is the Nagios status of the verdict line it printed;
#     also for an UNKNOWN (missing baseline) and a CRITICAL (a stalled rank);
#   - a drained node is left out of the job and of the results;
#   - a scrontab entry fires, and its job's exit code agrees with its verdict.
# Root only, with the fabric lock held from fabric up to down; otherwise one
# SKIP line. Last line: "slurm: N passed, N failed, N skipped" (tests/lib.sh).
#
#   sh tests/slurm/run_tests.sh      (from the repository, after make)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t_begin slurm
ROOT=$PWD
SW=$ROOT/build/swstress
SBATCH_SCRIPT=$ROOT/configs/slurm/swstress-check.sbatch

[ "$(id -u)" = 0 ] || t_skip_all slurm "need root (network namespaces, slurmd)"
why=$(sh tests/fabric/fabric.sh check 2>&1)
[ "$why" = ok ] || t_skip_all slurm "no emulated fabric here: $why"
need=""
for p in slurmctld slurmd slurm-client munge; do
	dpkg-query -W -f='${Status}' $p 2>/dev/null | grep -q "ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
	echo "slurm tests: installing$need"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=1200 install -y -q $need >/tmp/swslurm-apt.log 2>&1 ||
		t_skip_all slurm "cannot install$need (see /tmp/swslurm-apt.log)"
fi

exec 9>/run/lock/swstress-fabric.lock
echo "slurm tests: waiting for the fabric lock" >&2
flock -w 1500 9 || t_skip_all slurm "the fabric lock was busy for 25 minutes"
t_tmpdir slurm
T=$T_TMP
W=$T/w
mkdir -p "$W"
t_cleanup() {
	timeout 60 sh tests/slurm/cluster.sh down "$T" >/dev/null 2>&1
	timeout 60 sh tests/fabric/fabric.sh down >/dev/null 2>&1
}
FABRIC_QUIET=1 sh tests/fabric/fabric.sh up single 8 || t_bail "fabric up"
timeout 120 sh tests/slurm/cluster.sh up "$T" || t_bail "Slurm cluster up" "$T/ctld.log"
ok "Slurm cluster: slurmctld, munged and 8 slurmd (one per emulated host), all idle"
eval "$(sh tests/slurm/cluster.sh env "$T")"
# what the ranks need on the fabric; sbatch and srun pass the environment on
export UCX_TLS=tcp,self UCX_NET_DEVICES=swd0 UCX_WARN_UNUSED_ENV_VARS=n SWSTRESS="$SW"
cat >"$W/tiny.conf" <<EOF
# a short sweep for the tests
[sweep]
pairs = 1, max
sizes = 8, 64KiB
patterns = pingpong, stream
repetitions = 5
sample_time = 20ms
timeout = 20s
output = $W/results
label = nightly
[health]
deadline = 120s
EOF

# status_code FILE: the Nagios code of the verdict line in FILE, or "none"
status_code() {
	case $(grep -o '^SWSTRESS [A-Z]*' "$1" 2>/dev/null | head -n 1) in
	"SWSTRESS OK") echo 0 ;; "SWSTRESS WARNING") echo 1 ;; "SWSTRESS CRITICAL") echo 2 ;;
	"SWSTRESS UNKNOWN") echo 3 ;; *) echo none ;;
	esac
}
# job_field ID FIELD: a field of scontrol show job
job_field() { scontrol show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
# submit NAME [sbatch options] -- [script arguments]: run the shipped script
# and wait; sets job, out, rc
submit() {
	name=$1; shift
	out=$W/$name.out
	job=$(cd "$W" && timeout 300 sbatch --parsable --wait --output="$out" "$@") 
	rc=$?
	job=${job%%;*}
}
# agree NAME [ALLOWED_CODES]: the job's ExitCode equals its verdict's code
agree() {
	code=$(status_code "$out")
	ec=$(job_field "$job" ExitCode)
	allowed=${2:-0 1 2 3}
	if [ "$ec" = "$code:0" ] && [ "$rc" = "$code" ] && echo " $allowed " | grep -q " $code "; then
		ok "$1: job $job ExitCode $ec, sbatch --wait $rc, verdict: $(grep -m1 -o '^SWSTRESS [A-Z]* - .\{0,60\}' "$out")"
	else
		fail "$1: job ${job:-none} ExitCode '$ec', sbatch rc $rc, verdict code $code (allowed: $allowed): $(tail -n 5 "$out" 2>/dev/null)"
	fi
}
hosts_of() { python3 -c 'import json,sys; print(",".join(r["host"] for r in json.load(open(sys.argv[1]))["ranks"]))' "$1" 2>/dev/null; }

# --- srun --mpi=pmi2 starts MPICH: the baseline run ------------------------------
t0=$(date +%s)
(cd "$W" && timeout 300 srun --mpi=pmi2 -N 8 --ntasks-per-node=1 "$SW" run tiny.conf --label=base --no-plot) \
	>"$W/base.out" 2>&1
rc=$?
base=$(ls -d "$W"/results/base-* 2>/dev/null | head -n 1)
hosts=$([ -n "$base" ] && hosts_of "$base/run.json")
if [ "$rc" = 0 ] && [ "$hosts" = "swsN00,swsN01,swsN02,swsN03,swsN04,swsN05,swsN06,swsN07" ]; then
	ok "srun --mpi=pmi2 -N 8: 8 MPICH ranks, rank i on swsN0i, exit 0 ($(($(date +%s) - t0)) s)"
else
	fail "srun --mpi=pmi2 run: exit $rc, hosts '$hosts': $(tail -n 5 "$W/base.out")"
fi
if [ -n "$base" ] && "$SW" baseline set nightly "$base" >"$W/bl.out" 2>&1; then
	ok "swstress baseline set nightly $(basename "$base")"
else
	fail "baseline set: $(cat "$W/bl.out")"
fi

# a scrontab entry every minute; it fires while the jobs below run
cat >"$W/scrontab" <<EOF
#SCRON --job-name=swstress-cron --nodes=8 --ntasks-per-node=1 --exclusive --chdir=$W --output=$W/cron-%j.out
* * * * * SWSTRESS=$SW UCX_TLS=tcp,self UCX_NET_DEVICES=swd0 UCX_WARN_UNUSED_ENV_VARS=n $SBATCH_SCRIPT $W/tiny.conf
EOF
have_scrontab=no
if ! command -v scrontab >/dev/null 2>&1; then
	skip "scrontab" "not in Debian 12's slurm-client (22.05.8 ships no scrontab binary)"
elif scrontab "$W/scrontab" >"$W/scrontab.log" 2>&1; then
	have_scrontab=yes
else
	fail "scrontab: $(cat "$W/scrontab.log")"
fi

# --- the shipped batch script ----------------------------------------------------
submit srun -N 8 "$SBATCH_SCRIPT" "$W/tiny.conf"
agree "sbatch swstress-check.sbatch (srun --mpi=pmi2, 8 nodes)" "0 1 2"
SWSTRESS_LAUNCH=mpiexec submit mpiexec -N 8 "$SBATCH_SCRIPT" "$W/tiny.conf"
agree "sbatch swstress-check.sbatch (mpiexec inside the allocation, 8 nodes)" "0 1 2"
SWSTRESS_BASELINE=no-such-set submit unknown -N 8 "$SBATCH_SCRIPT" "$W/tiny.conf"
agree "sbatch with a missing baseline set: UNKNOWN" "3"
SWSTRESS_FAULT_STALL=5:1 submit stall -N 8 "$SBATCH_SCRIPT" "$W/tiny.conf" timeout=3s
agree "sbatch with rank 5 stalled at level 1: CRITICAL" "2"

# --- a drained node is left out ---------------------------------------------------
scontrol update NodeName=swsN03 State=DRAIN Reason=swstress-test
submit drained -N 6 "$SBATCH_SCRIPT" "$W/tiny.conf"
nodes=$(job_field "$job" NodeList)
dir=$(ls -dt "$W"/results/nightly-* 2>/dev/null | head -n 1)
hosts=$([ -n "$dir" ] && hosts_of "$dir/run.json")
case "$nodes,$hosts" in
*swsN03*) fail "drained swsN03 was used: NodeList $nodes, hosts $hosts" ;;
*) if [ -n "$nodes" ] && [ "$(echo "$hosts" | tr ',' '\n' | wc -l)" = 6 ]; then
	ok "drained swsN03 left out: NodeList $nodes, results hosts $hosts"
   else fail "drained: NodeList '$nodes', hosts '$hosts'"; fi ;;
esac
agree "the 6-node job on other hosts than the baseline: its exit code is its verdict"
scontrol update NodeName=swsN03 State=RESUME

# --- scrontab ---------------------------------------------------------------------
i=0
[ $have_scrontab = yes ] || i=150
while [ $i -lt 150 ]; do
	for f in "$W"/cron-*.out; do
		[ -f "$f" ] || continue
		cjob=$(basename "$f" .out | sed 's/^cron-//')
		[ "$(job_field "$cjob" JobState)" = COMPLETED ] || [ "$(job_field "$cjob" JobState)" = FAILED ] && break 2
	done
	sleep 1
	i=$((i + 1))
done
scrontab -r >/dev/null 2>&1 <<EOF
y
EOF
if [ $have_scrontab = no ]; then
	:
elif [ -f "${f:-}" ] && [ -n "${cjob:-}" ]; then
	ok "scrontab entry fired: job $cjob"
	job=$cjob out=$f rc=$(job_field "$cjob" ExitCode | cut -d: -f1)
	agree "the scrontab job" "0 1"
else
	fail "the scrontab entry did not fire within the wait: $(cat "$W/scrontab.log") $(squeue 2>&1 | tail -n 3)"
fi
echo "slurm tests: $(($(date +%s) - t0)) s with the cluster up"
t_end
