# shellcheck shell=bash
# testenv/srv/cluster-common.sh: the node table and the node life cycle of testenv's
# cluster mode (testenv/up.sh --cluster ..., testenv/fault.sh). Sourced after lib.sh by
# up.sh, down.sh, status.sh and fault.sh; defines variables and functions only.
#
# Every cluster node is one JVM with its own directory $CL_DIR/NODE holding:
#   cmd     its command line (NUL-separated), written on the first start, so that
#           fault.sh start/restart run exactly the same process again with its data;
#   pid     the pid of the running JVM (checked against -Dgobench.testenv=cluster-NODE);
#   out     its log (console output; appended on every start);
#   logoff  the size of out when the node was last started (readiness looks only at
#           what this start wrote);
#   conf/, data/, tmp/ (java.io.tmpdir and the servers' own temp dirs).
# The single-node servers (srv/kafka.sh ...) use none of these names or ports.

CL_DIR=$TE_RUN/cluster
# Exclusive for up/down --cluster, shared for fault.sh (outside CL_DIR: down removes it).
CL_LOCK=$TE_RUN/cluster.lock
CL_SYSTEMS="hdfs hbase kafka"

# cl_nodes SYSTEM...: node names, in start order.
cl_nodes() {
	local s
	for s in "$@"; do
		case $s in
		hdfs) echo hdfs-nn hdfs-dn1 hdfs-dn2 hdfs-dn3 ;;
		hbase) echo hbase-zk hbase-master hbase-rs1 hbase-rs2 hbase-rs3 ;;
		kafka) echo kafka1 kafka2 kafka3 ;;
		esac
	done
}

# cl_all_nodes: every node name.
cl_all_nodes() { cl_nodes $CL_SYSTEMS; }

# cl_system NODE: hdfs, hbase or kafka (empty for an unknown node).
cl_system() {
	case $1 in
	hdfs-nn | hdfs-dn[123]) echo hdfs ;;
	hbase-zk | hbase-master | hbase-rs[123]) echo hbase ;;
	kafka[123]) echo kafka ;;
	esac
}

# cl_ports NODE: the node's listening ports on 127.0.0.1; the first is its address.
# Scheme: HDFS 29xxx (NameNode 29000 RPC/29870 HTTP, DataNode N 2910N data, 2920N HTTP,
# 2930N IPC), HBase ZooKeeper 22181, master 26000, RegionServer N 2602N, Kafka broker N
# 1909N (controller 1919N). All below the ephemeral range (32768+) and away from the
# single-node ports (9092/9093, 9000/9864-9870, 2181, 16000/16020).
cl_ports() {
	case $1 in
	hdfs-nn) echo 29000 29870 ;;
	hdfs-dn[123]) echo "2910${1#hdfs-dn} 2920${1#hdfs-dn} 2930${1#hdfs-dn}" ;;
	hbase-zk) echo 22181 ;;
	hbase-master) echo 26000 ;;
	hbase-rs[123]) echo "2602${1#hbase-rs}" ;;
	kafka[123]) echo "1909${1#kafka} 1919${1#kafka}" ;;
	esac
}

# cl_port NODE: the node's main port.
cl_port() {
	local p
	read -r p _ <<<"$(cl_ports "$1")"
	echo "$p"
}

cl_check_node() {
	[ -n "$(cl_system "$1")" ] || te_die "unknown node \"$1\" (allowed: $(cl_all_nodes | tr '\n' ' ' | sed 's/ $//'))"
}

cl_tag() { echo "cluster-$1"; }
cl_alive() { te_pid_alive "$CL_DIR/$1/pid" "cluster-$1"; }
cl_pid() { cat "$CL_DIR/$1/pid" 2>/dev/null; }

# cl_state NODE: up, frozen (SIGSTOPped) or down.
cl_state() {
	local st
	if ! cl_alive "$1"; then
		echo down
		return
	fi
	# /proc/PID/stat: "pid (comm) S ..."; comm of a JVM is "java" (no spaces).
	read -r _ _ st _ <"/proc/$(cl_pid "$1")/stat"
	case $st in
	T | t) echo frozen ;;
	*) echo up ;;
	esac
}

# cl_lock MODE: take the cluster lock, -x for up/down or -s for fault.sh (fd 8, at most
# 600 s of waiting, never hangs).
cl_lock() {
	mkdir -p "$TE_RUN"
	exec 8>"$CL_LOCK"
	if ! flock -n "$1" 8; then
		te_log "waiting (up to 600 s) for another testenv cluster up/down/fault to finish"
		flock -w 600 "$1" 8 || te_die "still locked after 600 s: $CL_LOCK"
	fi
}

# cl_node_lock NODE: serialise fault actions on one node (fd 7).
cl_node_lock() {
	exec 7>"$CL_DIR/$1/.lock"
	flock -w 600 7 || te_die "$1: still locked after 600 s by another fault.sh"
}

# cl_define NODE CMD...: record the node's command line (used by every later start).
cl_define() {
	local n=$1
	shift
	mkdir -p "$CL_DIR/$n"
	printf '%s\0' "$@" >"$CL_DIR/$n/cmd"
}

# cl_spawn NODE: start the recorded command detached (own session), append to its log.
cl_spawn() {
	local n=$1 d=$CL_DIR/$1 pid i args
	[ -s "$d/cmd" ] || te_die "$n: never started (no $d/cmd); run testenv/up.sh --cluster $(cl_system "$n")"
	mapfile -d '' -t args <"$d/cmd"
	mkdir -p "$d/tmp"
	touch "$d/out"
	stat -c %s "$d/out" >"$d/logoff"
	printf '\n==== testenv: start %s at %s ====\n' "$n" "$(date '+%F %T')" >>"$d/out"
	te_spawn "$d/out" "${args[@]}" # holds no lock descriptor
	pid=$!
	disown "$pid" 2>/dev/null # no "Killed" job notice when a fault kills it later
	echo "$pid" >"$d/pid"
	for i in $(seq 1 50); do
		[[ $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) == *-Dgobench.testenv=* ]] && break
		[ -d "/proc/$pid" ] || break
		sleep 0.1
	done
}

# cl_since NODE ERE: the log lines written since the node's last start match ERE.
cl_since() {
	local d=$CL_DIR/$1 off
	off=$(cat "$d/logoff" 2>/dev/null || echo 0)
	# Not "tail | grep -q": under pipefail, grep's early exit fails tail with SIGPIPE
	# once the log is larger than a pipe buffer.
	grep -Eq -- "$2" <(tail -c +"$((off + 1))" "$d/out" 2>/dev/null)
}

# cl_node_ready NODE: the node itself is up (its ports and its log line); the cluster
# checks (3 live DataNodes, RegionServers registered, brokers in the metadata) are
# the systems' *_cluster_ready functions.
cl_node_ready() {
	local p
	p=$(cl_port "$1")
	te_port_open "$p" || return 1
	case $1 in
	hdfs-nn) cl_since "$1" 'Leaving safe mode' ;;
	hdfs-dn*) cl_since "$1" 'Successfully sent block report' ;;
	hbase-zk) return 0 ;;
	hbase-master) cl_since "$1" 'Master has completed initialization' ;;
	hbase-rs*) cl_since "$1" 'Serving as ' ;;
	kafka*) cl_since "$1" 'Kafka Server started' ;;
	esac
}

# cl_tail NODE: the last 40 lines of the node's log, to stderr.
cl_tail() {
	te_log "last 40 lines of $CL_DIR/$1/out:"
	tail -n 40 "$CL_DIR/$1/out" 2>/dev/null | cut -c1-300 >&2
}

# cl_wait_nodes SECONDS NODE...: wait until every node is ready. Fails (with the log
# tail) when one exits or the deadline passes.
cl_wait_nodes() { te_wait_nodes cl "" "$@"; }

# cl_kill NODE: SIGKILL the node (also when frozen) and wait until it is gone (10 s).
cl_kill() { te_kill_node cl "" "$CL_DIR" "$1"; }

# cl_stop NODE: orderly stop: SIGCONT (in case it is frozen), SIGTERM, SIGKILL after 40 s.
cl_stop() {
	local n=$1 pid i
	cl_alive "$n" || return 1
	pid=$(cl_pid "$n")
	kill -CONT "$pid" 2>/dev/null
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 1 400); do
		cl_alive "$n" || break
		sleep 0.1
	done
	if cl_alive "$n"; then
		te_log "$n (pid $pid) still running 40 s after SIGTERM; sending SIGKILL"
		cl_kill "$n"
	fi
	rm -f "$CL_DIR/$n/pid"
	return 0
}

# cl_free_ports NODE...: fail, naming the owner, if a port of these nodes is taken.
cl_free_ports() { te_free_ports cl "" "this testenv cluster" "$@"; }

# cl_rss_total NODE...: summed RSS in MiB of the running nodes.
cl_rss_total() { te_rss_total cl "$CL_DIR" "$@"; }

# cl_status_line NODE: one line: name, state, pid, RSS, address, log.
cl_status_line() { te_status_line cl "$CL_DIR" "$1" "$(cl_state "$1")"; }

# cl_tool_tmp: java.io.tmpdir of the one-shot helper JVMs (format, admin helpers).
cl_tool_tmp() {
	mkdir -p "$CL_DIR/tmp"
	echo "$CL_DIR/tmp"
}

# Per-node heaps (small on purpose: 11 JVMs share a 2-core, 24 GiB machine with the
# single-node servers and other work). Override with the GOBENCH_CLUSTER_* variables.
CL_NN_HEAP=${GOBENCH_CLUSTER_NN_HEAP:-256m}
CL_DN_HEAP=${GOBENCH_CLUSTER_DN_HEAP:-192m}
CL_ZK_HEAP=${GOBENCH_CLUSTER_ZK_HEAP:-128m}
CL_MASTER_HEAP=${GOBENCH_CLUSTER_MASTER_HEAP:-320m}
CL_RS_HEAP=${GOBENCH_CLUSTER_RS_HEAP:-640m}
CL_RS_DIRECT=${GOBENCH_CLUSTER_RS_DIRECT:-256m}
CL_KAFKA_HEAP=${GOBENCH_CLUSTER_KAFKA_HEAP:-384m}
# Start-up deadline per stage (nodes, then the cluster check).
CL_TIMEOUT=${GOBENCH_UP_TIMEOUT:-240}

# cl_up SYSTEM...: start the named systems (hbase brings hdfs). Already up: left alone;
# partly up (a node killed and not restarted): the missing nodes are started with their
# data; down: started fresh (data wiped, formatted).
cl_up() {
	local want=() s rc=0 t0
	for s in "$@"; do
		case $s in
		hdfs | hbase | kafka) ;;
		*) te_die "unknown cluster system \"$s\" (allowed: hdfs, hbase, kafka)" ;;
		esac
	done
	[ $# -gt 0 ] || set -- $CL_SYSTEMS
	# Start order: hdfs first (HBase's root dir is on it), then hbase, then kafka.
	for s in $CL_SYSTEMS; do
		if [[ " $* " == *" $s "* ]] || { [ $s = hdfs ] && [[ " $* " == *" hbase "* ]]; }; then
			want+=("$s")
		fi
	done
	[[ " $* " == *" hbase "* && " $* " != *" hdfs "* ]] && te_log "cluster hbase needs the cluster hdfs (its root dir and WALs are there): starting both"
	mkdir -p "$CL_DIR"
	cl_lock -x
	t0=$SECONDS
	# Kafka does not depend on the others: it starts beside HDFS + HBase (in a subshell)
	# unless GOBENCH_CLUSTER_PARALLEL=0.
	local kpid=
	if [ "${GOBENCH_CLUSTER_PARALLEL:-1}" != 0 ] && [ ${#want[@]} -gt 1 ] && [[ " ${want[*]} " == *" kafka "* ]]; then
		cl_up_one kafka &
		kpid=$!
	fi
	for s in "${want[@]}"; do
		[ $s = kafka ] && [ -n "$kpid" ] && continue
		if ! cl_up_one "$s"; then
			rc=1
			[ $s = hdfs ] && [[ " ${want[*]} " == *" hbase "* ]] && { te_log "cluster hbase: not started (hdfs failed)"; break; }
		fi
	done
	if [ -n "$kpid" ]; then wait "$kpid" || rc=1; fi
	[ $rc = 0 ] && te_log "cluster ${want[*]}: up in $((SECONDS - t0)) s; RSS of all cluster JVMs $(cl_rss_total $(cl_all_nodes)) MiB"
	return $rc
}

# cl_up_one SYSTEM: cl_SYSTEM_up. When a fresh start fails, the nodes it started are
# killed (logs kept); a system that was already (partly) up is left as it is.
# CL_FRESH (set by cl_SYSTEM_up / cl_resume): 1 fresh start, 2 resumed, 0 neither yet.
cl_up_one() {
	local s=$1 t0=$SECONDS n
	CL_FRESH=0
	"cl_${s}_up" && return 0
	case $CL_FRESH in
	1)
		te_log "cluster $s: FAILED to start (after $((SECONDS - t0)) s); stopping its nodes (logs kept in $CL_DIR)"
		for n in $(cl_nodes "$s"); do cl_kill "$n"; done
		;;
	2) te_log "cluster $s: running but not ready (after $((SECONDS - t0)) s); left as it is (testenv/down.sh --cluster $s starts over)" ;;
	*) te_log "cluster $s: not started" ;;
	esac
	return 1
}

# cl_resume SYSTEM: the first step of cl_SYSTEM_up. Returns 0 when every node is up and
# the system ready (it was, or its missing nodes were started with their data), 2 when
# no node runs (the caller starts the system fresh), 3 when it is not ready in time.
cl_resume() {
	local s=$1 n alive=() dead=()
	for n in $(cl_nodes "$s"); do
		if cl_alive "$n"; then alive+=("$n"); else dead+=("$n"); fi
	done
	[ ${#alive[@]} -eq 0 ] && return 2
	CL_FRESH=2
	if [ ${#dead[@]} -gt 0 ]; then
		te_log "cluster $s: ${dead[*]} down, ${alive[*]} up: starting ${dead[*]} with their data"
		for n in "${dead[@]}"; do cl_spawn "$n"; done
	fi
	for n in "${alive[@]}"; do
		[ "$(cl_state "$n")" = frozen ] && te_log "cluster $s: $n is frozen (testenv/fault.sh thaw $n)"
	done
	cl_wait_nodes "$CL_TIMEOUT" $(cl_nodes "$s") || return 3
	"cl_${s}_cluster_ready" || return 3
	te_log "cluster $s: up ($(echo $(cl_nodes "$s"))), RSS $(cl_rss_total $(cl_nodes "$s")) MiB"
	return 0
}

# cl_down SYSTEM...: stop the named systems (hdfs brings hbase down too) with SIGKILL and
# remove their data: the data is deleted anyway, so an orderly shutdown buys nothing.
cl_down() {
	local s n any want=()
	for s in "$@"; do
		case $s in
		hdfs | hbase | kafka) ;;
		*) te_die "unknown cluster system \"$s\" (allowed: hdfs, hbase, kafka)" ;;
		esac
	done
	[ $# -gt 0 ] || set -- $CL_SYSTEMS
	for s in hbase kafka hdfs; do
		if [[ " $* " == *" $s "* ]] || { [ $s = hbase ] && [[ " $* " == *" hdfs "* ]]; }; then
			want+=("$s")
		fi
	done
	mkdir -p "$CL_DIR"
	cl_lock -x
	for s in "${want[@]}"; do
		any=0
		for n in $(cl_nodes "$s"); do
			cl_kill "$n" && any=1
			rm -rf "${CL_DIR:?}/$n"
		done
		if [ $any = 1 ]; then te_log "cluster $s: stopped"; else te_log "cluster $s: not running (nothing to stop)"; fi
	done
	[ -z "$(ls "$CL_DIR")" ] || [ "$(ls "$CL_DIR")" = tmp ] && rm -rf "$CL_DIR"
	return 0
}

# cl_status [SYSTEM...]: cl_status_line for every node; 1 if one is not up.
cl_status() {
	local n s rc=0
	for s in "$@"; do
		case $s in
		hdfs | hbase | kafka) ;;
		*) te_die "unknown cluster system \"$s\" (allowed: hdfs, hbase, kafka)" ;;
		esac
	done
	[ $# -gt 0 ] || set -- $CL_SYSTEMS
	for n in $(cl_nodes "$@"); do
		cl_status_line "$n"
		[ "$(cl_state "$n")" = up ] || rc=1
	done
	return $rc
}
