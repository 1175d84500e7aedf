#!/usr/bin/env bash
# `mocap report` on Slurm, as docs/report.md documents it: a job array of
# shards (`mocap report --shard i/N -o parts/part-i.json`) and a merge job
# that depends on it (`--dependency=afterok:<array id>`); then the merged
# report is checked against a one-process run of the same clips (every
# number equal; only run times and the run record may differ).
#
#   scripts/slurm_report.sh [--local-cluster] [--mocap PATH] [--shards N]
#                           [--work DIR] [-- REPORT ARGUMENTS...]
#
# --local-cluster  start a one-node Slurm on this machine first, in a
#                  temporary folder: a munge key and munged, slurmctld and
#                  slurmd (-D, in the background) with a generated slurm.conf
#                  (node "localhost", 2 CPUs, no accounting, no cgroups);
#                  all stopped at the end. Needs root and `scripts/setup.sh
#                  slurm`. Without it, the cluster sbatch already talks to.
# --mocap PATH     the mocap binary (default: mocap on PATH); the work folder
#                  and the clips must be visible to every node.
# --shards N       array tasks (default 2).
# --work DIR       where parts/, the job logs and the reports go (default: a
#                  new folder under the temporary folder).
# REPORT ARGUMENTS the clips and options (default: data/09_06.amc
#                  data/16_05.amc data/49_06.amc --ratios 0.1).
#
# Exit 0: the merged report equals the one-process run. 77 (outside CI only): Slurm or munge
# is not installed, or the local cluster could not start (the reason is
# printed; ctest counts it as skipped). 1: anything else failed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
local_cluster=0 mocap=mocap shards=2 work=""
while [ $# -gt 0 ]; do
  case "$1" in
    --local-cluster) local_cluster=1 ;;
    --mocap) mocap=$2; shift ;;
    --shards) shards=$2; shift ;;
    --work) work=$2; shift ;;
    --) shift; break ;;
    *) echo "slurm_report: unknown argument $1 (see the comment at the top)" >&2; exit 1 ;;
  esac
  shift
done
report_args=("$@")
[ ${#report_args[@]} -gt 0 ] || report_args=("$here/data/09_06.amc" "$here/data/16_05.amc" "$here/data/49_06.amc" --ratios 0.1)
# The jobs run in the work folder: inputs by their full paths.
for i in "${!report_args[@]}"; do
  [ -e "${report_args[i]}" ] && report_args[i]=$(realpath "${report_args[i]}")
done
mocap=$(command -v "$mocap" || true)
[ -z "$mocap" ] || mocap=$(realpath "$mocap")
[ -x "$mocap" ] || { echo "slurm_report: no mocap binary (give --mocap PATH)" >&2; exit 1; }

# Not installed: a skip outside CI, a failure under CI=true (where test.sh
# installs it; scripts/require_tool.sh). Installed but broken: always a failure.
source "$here/scripts/require_tool.sh"
broken() { echo "slurm_report: FAIL: Slurm is installed but broken: $*" >&2; exit 1; }
started=$(date +%s.%N)
elapsed() { awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }'; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mocap-slurm.XXXXXX")
pids=()
cleanup() {
  local code=$?
  # Our own daemons, by the pids we started, newest first.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]+"${pids[@]}"}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  if [ $code -ne 0 ] && [ $code -ne 77 ] && [ -d "$tmp/log" ]; then
    for f in "$tmp"/log/*.log; do echo "--- $f (last lines)" >&2; tail -n 15 "$f" >&2; done
  fi
  rm -rf "$tmp"
  exit $code
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ $local_cluster -eq 1 ]; then
  require_tool "bash scripts/setup.sh slurm" munged slurmctld slurmd sbatch squeue scontrol sinfo
  [ "$(id -u)" -eq 0 ] || unavailable "the local cluster runs its daemons as root (SlurmUser=root); run as root"
  mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/run"
  chmod 700 "$tmp/munge"
  # A key of this cluster only, and munged with its socket, pid, log and seed here.
  dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$tmp/munge/munge.key"
  socket=$tmp/munge/munge.socket
  munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$socket" \
    --pid-file="$tmp/run/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munge.seed" \
    2>> "$tmp/log/munged.log" &
  pids+=($!)
  for _ in $(seq 1 50); do [ -S "$socket" ] && break; sleep 0.1; done
  [ -S "$socket" ] || broken "munged did not start: $(tail -n 3 "$tmp/log/munged.log" | tr '\n' ' ')"

  # Free ports, so that a cluster already on this machine is left alone.
  port=$(( 20000 + RANDOM % 20000 ))
  while ss -ltn 2>/dev/null | grep -qE ":($port|$((port + 1)))\b"; do port=$((port + 2)); done
  export SLURM_CONF=$tmp/slurm.conf
  cat > "$SLURM_CONF" <<EOF
ClusterName=mocaptest
# By address as well as by name: a machine or container without an /etc/hosts
# (a debootstrap root) cannot resolve "localhost".
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
ReturnToService=2
SlurmdParameters=config_overrides
MinJobAge=300
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=mocap Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  slurmctld -D -i -f "$SLURM_CONF" >> "$tmp/log/slurmctld.out" 2>&1 &
  pids+=($!)
  slurmd -D -N localhost -f "$SLURM_CONF" >> "$tmp/log/slurmd.out" 2>&1 &
  pids+=($!)
  state=""
  deadline=$((SECONDS + 15))  # by the clock: a slow sinfo must not stretch it
  while [ $SECONDS -lt $deadline ]; do
    state=$(timeout 5 sinfo -h -n localhost -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null || broken "a Slurm daemon exited at start: $(tail -n 3 "$tmp"/log/*.out "$tmp"/log/slurm*.log 2>/dev/null | tr '\n' ' ')"
    done
    sleep 0.1
  done
  [ "$state" = idle ] || broken "the node did not become idle within 15 s (state '${state:-none}'): $(tail -n 3 "$tmp/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
  echo "slurm_report: one-node Slurm $(sinfo -V | awk '{print $2}') up in $(elapsed): slurmctld port $port, $tmp"
else
  command -v sbatch >/dev/null ||
    unavailable "sbatch is not on PATH (Slurm's client: bash scripts/setup.sh slurm installs it; or give --local-cluster)"
fi

[ -n "$work" ] || work=$tmp/work
mkdir -p "$work/parts"
work=$(cd "$work" && pwd)
rm -f "$work"/parts/part-*.json "$work/report.json" "$work/one.json"

# The job script of docs/report.md ("Slurm job array"), with the clips and
# options of this run; mocap by its full path, the count from Slurm.
quoted=$(printf ' %q' "${report_args[@]}")
cat > "$work/report.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=mocap-report
#SBATCH --cpus-per-task=1
#SBATCH --time=00:10:00
$(printf '%q' "$mocap") report$quoted \\
  -j "\$SLURM_CPUS_PER_TASK" --progress=machine --resume \\
  --shard "\$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT" \\
  -o "parts/part-\$SLURM_ARRAY_TASK_ID.json"
EOF
cd "$work"
array=$(sbatch --parsable --array=0-$((shards - 1)) --output="$work/part-%a.log" report.sbatch)
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" --output="$work/merge.log" \
  --wrap "$(printf '%q' "$mocap") report --merge parts/part-*.json -o report.json")
merge=${merge%%;*}
echo "slurm_report: submitted array job $array (tasks 0-$((shards - 1))) and merge job $merge (afterok:$array)"

# Meanwhile, the same report in one process, to compare with.
"$mocap" report "${report_args[@]}" --progress=none -o "$work/one.json"

deadline=$(( $(date +%s) + 120 ))
while squeue -h -j "$array,$merge" 2>/dev/null | grep -q .; do
  [ "$(date +%s)" -lt $deadline ] || { echo "slurm_report: jobs still queued after 120 s:" >&2; squeue >&2; exit 1; }
  sleep 0.2
done
# One line per job (array task), and every one must have completed.
jobs=$(for job in "$array" "$merge"; do scontrol -o show job "$job" 2>/dev/null; done |
  awk '{ line = "slurm_report:"; for (i = 1; i <= NF; i++) if ($i ~ /^(JobId|ArrayJobId|ArrayTaskId|JobState|ExitCode|SubmitTime|StartTime|EndTime)=/) line = line " " $i; print line }')
echo "$jobs"
[ "$(grep "JobState=COMPLETED" <<< "$jobs" | grep -c "ExitCode=0:0")" -eq $((shards + 1)) ] ||
  { echo "slurm_report: expected $shards array tasks and the merge COMPLETED with exit 0" >&2; cat "$work"/*.log >&2; exit 1; }
[ -f "$work/report.json" ] || { echo "slurm_report: the merge job wrote no report:" >&2; cat "$work"/*.log >&2; exit 1; }
parts=$(ls "$work"/parts/part-*.json | wc -l)
[ "$parts" -eq "$shards" ] || { echo "slurm_report: $parts parts, expected $shards" >&2; exit 1; }

python3 - "$work/report.json" "$shards" <<'EOF'
import json, sys
merged = json.load(open(sys.argv[1]))
assert merged["shard"] == {"index": 0, "count": 1}, merged["shard"]
print(f"slurm_report: merged report of {len(merged['clips'])} clips from {sys.argv[2]} shards")
EOF
python3 "$here/scripts/same_report.py" "$work/one.json" "$work/report.json" --names "one process" merged --threads-may-differ
echo "slurm_report: done in $(elapsed)"
