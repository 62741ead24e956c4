#!/usr/bin/env bash
# A real single-node Slurm on this host (loopback only), for end-to-end tests of the
# Slurm profile. Installs Debian's slurm-wlm, munge, slurmdbd and mariadb-server
# when missing (root only), writes every config, state, spool and log file under
# one directory, starts munged, mariadbd, slurmdbd, slurmctld and slurmd as plain
# daemons (no systemd needed), adds the test account, and waits until the node is idle.
# Idempotent: running it again on a live cluster changes nothing. Stop it with slurm-down.sh.
#
# Environment:
#   HIERBN_SLURM_DIR        where everything lives (default /tmp/hierbn-slurm)
#   HIERBN_SLURM_PARTITION  partition name (default debug)
#   HIERBN_SLURM_ACCOUNT    account name (default hierbn)
#   HIERBN_SLURM_TIMEOUT    seconds to wait for each daemon / the idle node (default 60)
#   HIERBN_SLURM_PORT       first of three TCP ports: slurmctld, slurmd, slurmdbd (default 6817)
#
# Exit codes: 0 ready; 77 not root (cannot install or start anything: a test should skip);
#             2 /etc/slurm/slurm.conf is someone else's (this host has a Slurm of its own);
#             1 a daemon did not come up (see the logs under $HIERBN_SLURM_DIR/log).
# On success the last lines are KEY=VALUE, for a test or a profile to read:
#   SLURM_CONF=..., SLURM_ACCOUNT=..., SLURM_PARTITION=..., SLURM_DIR=...
set -euo pipefail

STATE=${HIERBN_SLURM_DIR:-/tmp/hierbn-slurm}
PARTITION=${HIERBN_SLURM_PARTITION:-debug}
ACCOUNT=${HIERBN_SLURM_ACCOUNT:-hierbn}
TIMEOUT=${HIERBN_SLURM_TIMEOUT:-60}
PORT=${HIERBN_SLURM_PORT:-6817}
CLUSTER=hierbn
NODE=$(hostname -s)

log() { echo "slurm-up: $*" >&2; }
die() { log "$1"; exit "${2:-1}"; }

# ---- 1. packages ------------------------------------------------------------------------
PKGS=(slurm-wlm slurm-client slurmdbd munge mariadb-server)
need_install=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need_install+=("$p")
done
if ((${#need_install[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
        die "missing packages (${need_install[*]}) and not root: cannot install them" 77
    fi
    log "installing ${need_install[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    # the package lists may be absent (fresh container) or stale: update once, retry once
    apt-get install -y -q --no-install-recommends "${need_install[@]}" >/dev/null 2>&1 || {
        apt-get update -q >/dev/null
        apt-get install -y -q --no-install-recommends "${need_install[@]}" >/dev/null
    }
fi
[[ $(id -u) -eq 0 ]] || die "the daemons are started as root here; run as root" 77

# ---- 2. layout and config ---------------------------------------------------------------
CONF="$STATE/etc/slurm.conf"
# The client commands find the config through SLURM_CONF or at /etc/slurm/slurm.conf. The
# default place is needed: the jobstep executor drops every SLURM_* variable (SLURM_CONF too)
# before its srun inside a job, so that srun reads /etc/slurm/slurm.conf or fails. A link
# there (removed by slurm-down.sh); a file there that is not ours is left alone, and refused.
SYSCONF=/etc/slurm/slurm.conf
if [[ -L $SYSCONF && $(readlink "$SYSCONF") == "$CONF" ]]; then
    :
elif [[ -L $SYSCONF && ! -e $SYSCONF && $(readlink "$SYSCONF") == */etc/slurm.conf ]]; then
    log "replacing a dangling link $SYSCONF -> $(readlink "$SYSCONF") (a test cluster's dir gone)"
    ln -sfn "$CONF" "$SYSCONF"
elif [[ -L $SYSCONF && $(readlink "$SYSCONF") == */etc/slurm.conf ]]; then
    die "$SYSCONF links to $(readlink "$SYSCONF"): another test cluster is up (one per host);
  stop it with HIERBN_SLURM_DIR=$(dirname "$(dirname "$(readlink "$SYSCONF")")") slurm-down.sh" 2
elif [[ -e $SYSCONF || -L $SYSCONF ]]; then
    die "$SYSCONF exists and is not slurm-up.sh's link: this host has a Slurm of its own" 2
else
    mkdir -p /etc/slurm
    ln -s "$CONF" "$SYSCONF"
fi
mkdir -p "$STATE"/{etc,log,run,munge,db,spool/ctld,spool/d}
chmod 0755 "$STATE"
chmod 0700 "$STATE/munge"
DBDCONF="$STATE/etc/slurmdbd.conf"
# munge's default socket: Slurm 22.05's connections to slurmdbd ignore AuthInfo=socket=...
MUNGE_SOCKET=/run/munge/munge.socket.2
DB_SOCKET="$STATE/run/mysqld.sock"

CPUS=$(nproc)
MEM_TOTAL=$(free -m | awk '/^Mem:/ {print $2}')
MARGIN=$((MEM_TOTAL / 10 > 512 ? MEM_TOTAL / 10 : 512))
MEM=$((MEM_TOTAL - MARGIN))
((MEM >= 256)) || MEM=256

CHANGED=()
write_if_changed() { # file; content on stdin. Keeps the file (and its mtime) when equal.
    local tmp
    tmp=$(mktemp "$1.XXXX")
    cat >"$tmp"
    if [[ -f $1 ]] && cmp -s "$tmp" "$1"; then
        rm -f "$tmp"
    else
        [[ -f $1 ]] && CHANGED+=("$1")
        mv "$tmp" "$1"
    fi
}

write_if_changed "$CONF" <<EOF
# written by tests/cluster/slurm-up.sh: a single-node test cluster on loopback
ClusterName=$CLUSTER
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$STATE/spool/ctld
SlurmdSpoolDir=$STATE/spool/d
SlurmctldPidFile=$STATE/run/slurmctld.pid
SlurmdPidFile=$STATE/run/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
# no systemd, no cgroup delegation inside a container: track processes by /proc, bind nothing
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# a job that asks no memory gets this much, not the whole node
DefMemPerCPU=$((MEM / CPUS < 1024 ? MEM / CPUS : 1024))
SchedulerType=sched/backfill
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
# finished jobs stay visible to squeue/scontrol for 5 minutes
MinJobAge=300
# job accounting: slurmdbd (for sacct / sacctmgr), and a plain text log of every finished job
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$((PORT + 2))
AccountingStorageEnforce=associations
JobCompType=jobcomp/filetxt
JobCompLoc=$STATE/log/jobcomp.txt
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=$PARTITION Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

write_if_changed "$DBDCONF" <<EOF
# written by tests/cluster/slurm-up.sh
AuthType=auth/munge
DbdHost=$NODE
DbdAddr=127.0.0.1
DbdPort=$((PORT + 2))
SlurmUser=root
PidFile=$STATE/run/slurmdbd.pid
LogFile=$STATE/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageLoc=slurm_acct_db
StorageUser=root
StoragePort=0
EOF
chmod 0600 "$DBDCONF"

export SLURM_CONF=$CONF

# ---- 3. daemons -------------------------------------------------------------------------
alive() { # pidfile, process name: that daemon runs (a pid file outlives its process, pids get reused)
    local pid
    [[ -s $1 ]] && pid=$(tr -dc 0-9 <"$1") && [[ -n $pid ]] &&
        [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$2" ]]
}
wait_for() { # description, shell command (each try is cut at 10s)
    local what=$1 end=$((SECONDS + TIMEOUT))
    until timeout 10 bash -c "$2" >/dev/null 2>&1; do
        ((SECONDS < end)) || die "$what did not come up within ${TIMEOUT}s (logs in $STATE/log)"
        sleep 0.5
    done
}

stop() { # pidfile, process name
    alive "$1" "$2" || return 0
    local pid end=$((SECONDS + TIMEOUT))
    pid=$(tr -dc 0-9 <"$1")
    kill -TERM "$pid"
    while kill -0 "$pid" 2>/dev/null; do
        ((SECONDS < end)) || { kill -KILL "$pid"; break; }
        sleep 0.5
    done
}
# a running cluster whose config this run changed (other partition, account, memory...)
# restarts the daemons that read it
if [[ " ${CHANGED[*]} " == *" $DBDCONF "* ]] && alive "$STATE/run/slurmdbd.pid" slurmdbd; then
    log "slurmdbd.conf changed: restarting slurmdbd"
    stop "$STATE/run/slurmdbd.pid" slurmdbd
fi
if [[ " ${CHANGED[*]} " == *" $CONF "* ]] && alive "$STATE/run/slurmctld.pid" slurmctld; then
    log "slurm.conf changed: restarting slurmd and slurmctld"
    stop "$STATE/run/slurmd.pid" slurmd
    stop "$STATE/run/slurmctld.pid" slurmctld
fi

# munge
if [[ ! -s $STATE/munge/munge.key ]]; then
    mungekey --create --keyfile="$STATE/munge/munge.key"
fi
chmod 0600 "$STATE/munge/munge.key"
MUNGE_OK="munge -S $MUNGE_SOCKET -n | unmunge -S $MUNGE_SOCKET"
if alive "$STATE/run/munged.pid" munged; then
    :
elif timeout 10 bash -c "$MUNGE_OK" >/dev/null 2>&1; then
    # one host: any munged will do, whatever its key; slurm-down.sh leaves it alone
    log "using the munged already answering on $MUNGE_SOCKET"
else
    log "starting munged"
    if [[ ! -d $(dirname "$MUNGE_SOCKET") ]]; then
        mkdir -p "$(dirname "$MUNGE_SOCKET")"
        touch "$STATE/run/munge-dir-ours" # for slurm-down.sh to remove it
    fi
    chmod 0755 "$(dirname "$MUNGE_SOCKET")" # every user's jobs need the socket
    # --force: a socket left by a munged that was killed would stop it otherwise
    munged --socket="$MUNGE_SOCKET" --key-file="$STATE/munge/munge.key" \
        --pid-file="$STATE/run/munged.pid" --log-file="$STATE/log/munged.log" \
        --seed-file="$STATE/munge/munged.seed" --force
fi
wait_for munged "$MUNGE_OK"

# mariadb (for slurmdbd)
if [[ ! -d $STATE/db/mysql ]]; then
    log "initialising the accounting database"
    mariadb-install-db --no-defaults --user=root --datadir="$STATE/db" \
        --auth-root-authentication-method=socket >"$STATE/log/mariadb-install.log" 2>&1
fi
if ! alive "$STATE/run/mysqld.pid" mariadbd; then
    log "starting mariadbd"
    # setsid: out of the caller's session, like the daemons that fork themselves
    setsid -f /usr/sbin/mariadbd --no-defaults --user=root --datadir="$STATE/db" --socket="$DB_SOCKET" \
        --pid-file="$STATE/run/mysqld.pid" --log-error="$STATE/log/mariadb.log" \
        --skip-networking --innodb-buffer-pool-size=128M --innodb-lock-wait-timeout=900 --performance-schema=OFF \
        </dev/null >/dev/null 2>&1
fi
wait_for mariadbd "mariadb --no-defaults --socket=$DB_SOCKET -u root -e 'select 1'"

# slurmdbd
if ! alive "$STATE/run/slurmdbd.pid" slurmdbd; then
    log "starting slurmdbd"
    # slurmdbd has no -f: it reads slurmdbd.conf beside $SLURM_CONF; the MariaDB client
    # library takes the server's socket from MYSQL_UNIX_PORT
    MYSQL_UNIX_PORT=$DB_SOCKET slurmdbd ||
        die "slurmdbd failed to start"
fi
wait_for slurmdbd "sacctmgr -i list cluster"

# register the cluster and the account before slurmctld starts (so it loads the associations)
sacctmgr -n -P list cluster format=cluster | grep -qx "$CLUSTER" ||
    sacctmgr -i add cluster "$CLUSTER" >/dev/null
sacctmgr -n -P list account format=account | grep -qx "$ACCOUNT" ||
    sacctmgr -i add account "$ACCOUNT" cluster="$CLUSTER" description="hierbn tests" organization=hierbn >/dev/null
for user in root "${SUDO_USER:-}"; do
    [[ -n $user ]] || continue
    # (adding the cluster already made root a user, of account root)
    sacctmgr -n -P list assoc where cluster="$CLUSTER" account="$ACCOUNT" user="$user" format=user | grep -qx "$user" ||
        sacctmgr -i add user "$user" account="$ACCOUNT" cluster="$CLUSTER" >/dev/null
    sacctmgr -n -P list user "$user" format=defaultaccount | grep -qx "$ACCOUNT" ||
        sacctmgr -i modify user where name="$user" set defaultaccount="$ACCOUNT" >/dev/null
done

# slurmctld, slurmd
if ! alive "$STATE/run/slurmctld.pid" slurmctld; then
    log "starting slurmctld"
    slurmctld -f "$CONF" || die "slurmctld failed to start"
fi
wait_for slurmctld "scontrol ping | grep -q UP"
if ! alive "$STATE/run/slurmd.pid" slurmd; then
    log "starting slurmd"
    slurmd -f "$CONF" || die "slurmd failed to start"
fi
wait_for "node $NODE (idle)" "sinfo -h -n $NODE -o %T | grep -Eqx 'idle|mixed|allocated'"

log "ready: $(sinfo -h -o '%P %a %D %T %N')"
log "for Snakemake: --default-resources slurm_account=$ACCOUNT slurm_partition=$PARTITION"
echo "SLURM_CONF=$CONF"
echo "SLURM_ACCOUNT=$ACCOUNT"
echo "SLURM_PARTITION=$PARTITION"
echo "SLURM_DIR=$STATE"
