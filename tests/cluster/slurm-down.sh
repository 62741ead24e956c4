#!/usr/bin/env bash
# Stops the test cluster that slurm-up.sh started (by the pid files it left) and removes
# its directory. Idempotent: with nothing running and nothing there, it does nothing.
#   HIERBN_SLURM_DIR   the directory slurm-up.sh used (default /tmp/hierbn-slurm)
#   HIERBN_SLURM_KEEP=1  stop the daemons but keep the directory (logs, job records)
set -uo pipefail

STATE=${HIERBN_SLURM_DIR:-/tmp/hierbn-slurm}
log() { echo "slurm-down: $*" >&2; }

export SLURM_CONF=$STATE/etc/slurm.conf
if [[ ! -d $STATE ]]; then
    # (a link left dangling at the default config place, should the directory have gone first)
    [[ -L /etc/slurm/slurm.conf && $(readlink /etc/slurm/slurm.conf) == "$SLURM_CONF" ]] &&
        rm -f /etc/slurm/slurm.conf
    log "nothing at $STATE"
    exit 0
fi

# a pid from a pid file, only while that process is still the daemon named (pids get reused)
daemon_pid() { # pidfile, process name
    local pid
    [[ -s $1 ]] || return 1
    pid=$(tr -dc 0-9 <"$1")
    [[ -n $pid ]] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$2" ]] || return 1
    echo "$pid"
}

stop() { # pidfile name [pidfile name ...]: SIGTERM to all, then wait for all (30s, then SIGKILL)
    local pids=() pid t=0
    while (($#)); do
        if pid=$(daemon_pid "$1" "$2"); then
            log "stopping $2 ($pid)"
            kill -TERM "$pid" 2>/dev/null
            pids+=("$pid")
        fi
        shift 2
    done
    for pid in "${pids[@]}"; do
        while kill -0 "$pid" 2>/dev/null; do
            if ((t++ > 60)); then
                log "$pid ignored SIGTERM for 30s: SIGKILL"
                kill -KILL "$pid" 2>/dev/null
                break
            fi
            sleep 0.5
        done
    done
}

# cancel what is still queued or running, so no job step outlives the cluster
if daemon_pid "$STATE/run/slurmctld.pid" slurmctld >/dev/null && [[ -f $SLURM_CONF ]]; then
    mapfile -t jobs < <(squeue -h -o %A 2>/dev/null)
    if ((${#jobs[@]})); then
        log "cancelling jobs: ${jobs[*]}"
        scancel "${jobs[@]}" 2>/dev/null
        for _ in $(seq 20); do
            [[ -z $(squeue -h -t PD,R,CG -o %A 2>/dev/null) ]] && break
            sleep 0.5
        done
    fi
fi

# in order: slurmctld hands its last records to slurmdbd, slurmdbd to the database
stop "$STATE/run/slurmd.pid" slurmd "$STATE/run/slurmctld.pid" slurmctld
stop "$STATE/run/slurmdbd.pid" slurmdbd
stop "$STATE/run/mysqld.pid" mariadbd "$STATE/run/munged.pid" munged
[[ -f $STATE/run/munge-dir-ours ]] && rmdir /run/munge 2>/dev/null

# job steps whose working files are in our spool dir (none, unless a job ignored scancel)
for d in /proc/[0-9]*; do
    [[ $(cat "$d/comm" 2>/dev/null) == slurmstepd ]] || continue
    for f in "$d/cwd" "$d"/fd/*; do
        if [[ $(readlink "$f" 2>/dev/null) == "$STATE"/* ]]; then
            log "killing leftover slurmstepd ${d#/proc/}"
            kill -KILL "${d#/proc/}" 2>/dev/null
            break
        fi
    done
done

# the link slurm-up.sh put at the default config place, if it is still ours
if [[ -L /etc/slurm/slurm.conf && $(readlink /etc/slurm/slurm.conf) == "$SLURM_CONF" ]]; then
    rm -f /etc/slurm/slurm.conf
fi

if [[ ${HIERBN_SLURM_KEEP:-0} == 1 ]]; then
    log "daemons stopped; $STATE kept"
else
    rm -rf "$STATE"
    log "daemons stopped; $STATE removed"
fi
exit 0
