#!/usr/bin/env bash
# testenv/fault.sh: inject faults into testenv's cluster (testenv/up.sh --cluster ...) by
# node name, for tests (through the Go package testenv/cluster) and benchmarks alike.
#
#   fault.sh list                     every node: state (up, frozen, down), pid, RSS, address
#   fault.sh ports                    every node and its ports (no servers needed)
#   fault.sh kill NODE...             SIGKILL (a crash: no shutdown, data kept on disk)
#   fault.sh freeze NODE [DURATION]   SIGSTOP; with DURATION (8s, 500ms, 2m, 1.5) a
#                                     detached timer sends SIGCONT after it; returns at once
#   fault.sh thaw NODE                SIGCONT now (and cancel the timer)
#   fault.sh stop NODE                orderly stop (SIGTERM, SIGKILL after 40 s)
#   fault.sh start NODE               start a stopped or killed node again with its data,
#                                     wait until it is ready (GOBENCH_UP_TIMEOUT, 240 s)
#   fault.sh restart NODE             stop (orderly) if running, then start
#   fault.sh hbase COMMAND ARGS...    HBase admin action (java/ClusterAdmin.java: move,
#                                     split, balance, unassign, assign, create, regions, ...)
#   fault.sh kafka COMMAND ARGS...    Kafka question or action (java/ClusterKafka.java:
#                                     leader, describe, create, wait-isr, ...)
#   fault.sh hdfs live                the NameNode's number of live DataNodes
#   fault.sh hdfs wait-live N SECONDS until the NameNode reports N live DataNodes
#
# NODE: hdfs-nn hdfs-dn1 hdfs-dn2 hdfs-dn3 hbase-zk hbase-master hbase-rs1 hbase-rs2
# hbase-rs3 kafka1 kafka2 kafka3. Exit 0 on success, 1 on failure, 2 on bad usage.
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for f in "$TE_DIR"/srv/cluster-*.sh; do . "$f"; done

usage() {
	printf '[testenv] %s\n' "$*" >&2
	sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# seconds DURATION: Go-style duration (500ms, 8s, 2m) or plain seconds, as seconds.
seconds() {
	local v=$1
	[[ $v =~ ^([0-9]+(\.[0-9]+)?)(ms|s|m)?$ ]] || usage "duration \"$v\": want e.g. 8s, 500ms, 2m or 1.5 (seconds)"
	case ${BASH_REMATCH[3]} in
	ms) awk -v x="${BASH_REMATCH[1]}" 'BEGIN { printf "%.3f", x / 1000 }' ;;
	m) awk -v x="${BASH_REMATCH[1]}" 'BEGIN { printf "%.3f", x * 60 }' ;;
	*) echo "${BASH_REMATCH[1]}" ;;
	esac
}

# node_prepare NODE: check the name, take the locks, require that the node was started.
node_prepare() {
	cl_check_node "$1"
	[ -s "$CL_DIR/$1/cmd" ] || te_die "$1: not part of a running cluster (start it with testenv/up.sh --cluster $(cl_system "$1"))"
	cl_node_lock "$1"
}

# cancel_timer NODE: stop a pending thaw timer of NODE.
cancel_timer() {
	local f=$CL_DIR/$1/thaw.pid pid c
	[ -f "$f" ] || return 0
	pid=$(cat "$f")
	c=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)
	[[ $c == *"gobench-thaw $1 "* ]] && kill "$pid" 2>/dev/null
	rm -f "$f"
}

start_node() {
	local n=$1 t0=$SECONDS
	if cl_alive "$n"; then
		te_log "$n: already running (pid $(cl_pid "$n"), $(cl_state "$n"))"
	else
		cl_spawn "$n"
	fi
	cl_wait_nodes "$CL_TIMEOUT" "$n" || te_die "$n: not ready after start"
	te_log "$n: started (pid $(cl_pid "$n")), ready in $((SECONDS - t0)) s"
}

cmd=${1:-}
[ -n "$cmd" ] || usage "no command"
shift
case $cmd in
list)
	cl_status_line_header() { printf '%-13s %-6s %-7s %9s  %-16s %s\n' NODE STATE PID RSS ADDRESS LOG; }
	cl_status_line_header
	for n in $(cl_all_nodes); do cl_status_line "$n"; done
	;;
ports)
	for n in $(cl_all_nodes); do echo "$n $(cl_ports "$n")"; done
	;;
kill)
	[ $# -gt 0 ] || usage "kill: name a node"
	cl_lock -s
	for n in "$@"; do
		node_prepare "$n"
		cancel_timer "$n"
		pid=$(cl_pid "$n")
		cl_kill "$n" || te_die "$n: not running"
		te_log "$n: killed (SIGKILL, pid $pid)"
	done
	;;
freeze)
	[ $# -eq 1 ] || [ $# -eq 2 ] || usage "freeze: want NODE [DURATION]"
	n=$1
	secs=
	[ $# -eq 2 ] && secs=$(seconds "$2")
	cl_lock -s
	node_prepare "$n"
	cl_alive "$n" || te_die "$n: not running"
	cancel_timer "$n"
	kill -STOP "$(cl_pid "$n")"
	if [ -n "$secs" ]; then
		# Detached, so that it outlives this script; "gobench-thaw NODE" marks it for cancel_timer.
		setsid nohup bash -c 'sleep "$1"; exec "$2" thaw "$3"' "gobench-thaw $n " "$secs" "$TE_DIR/fault.sh" "$n" \
			>/dev/null 2>&1 </dev/null 7>&- 8>&- 9>&- &
		echo $! >"$CL_DIR/$n/thaw.pid"
		te_log "$n: frozen (SIGSTOP, pid $(cl_pid "$n")) for $2"
	else
		te_log "$n: frozen (SIGSTOP, pid $(cl_pid "$n")) until testenv/fault.sh thaw $n"
	fi
	;;
thaw)
	[ $# -eq 1 ] || usage "thaw: want NODE"
	n=$1
	cl_lock -s
	node_prepare "$n"
	# The timer's own thaw leaves its pid file for the next freeze to overwrite.
	[ "$(cat "$CL_DIR/$n/thaw.pid" 2>/dev/null)" = "$$" ] || cancel_timer "$n"
	cl_alive "$n" || te_die "$n: not running"
	kill -CONT "$(cl_pid "$n")"
	te_log "$n: thawed (SIGCONT, pid $(cl_pid "$n"))"
	;;
stop)
	[ $# -eq 1 ] || usage "stop: want NODE"
	cl_lock -s
	node_prepare "$1"
	cancel_timer "$1"
	cl_stop "$1" || te_die "$1: not running"
	te_log "$1: stopped"
	;;
start)
	[ $# -eq 1 ] || usage "start: want NODE"
	cl_lock -s
	node_prepare "$1"
	start_node "$1"
	;;
restart)
	[ $# -eq 1 ] || usage "restart: want NODE"
	cl_lock -s
	node_prepare "$1"
	cancel_timer "$1"
	cl_stop "$1" && te_log "$1: stopped"
	start_node "$1"
	;;
hbase)
	[ $# -gt 0 ] || usage "hbase: want a ClusterAdmin command (see testenv/java/ClusterAdmin.java)"
	# A shell (the Go package's long-lived helper) must not hold the lock for its life.
	[ "$1" = shell ] || cl_lock -s
	cl_hbase_admin "$@"
	;;
kafka)
	[ $# -gt 0 ] || usage "kafka: want a ClusterKafka command (see testenv/java/ClusterKafka.java)"
	[ "$1" = shell ] || cl_lock -s
	cl_kafka_tool "$@"
	;;
hdfs)
	case ${1:-} in
	live)
		[ $# -eq 1 ] || usage "hdfs live: no arguments"
		live=$(cl_hdfs_live)
		[ -n "$live" ] || te_die "the cluster NameNode does not answer on http://127.0.0.1:29870"
		echo "$live"
		;;
	wait-live)
		[ $# -eq 3 ] && [[ $2 =~ ^[0-9]+$ && $3 =~ ^[0-9]+$ ]] || usage "hdfs wait-live: want N SECONDS (integers)"
		end=$((SECONDS + $3))
		while [ "$(cl_hdfs_live)" != "$2" ]; do
			[ $SECONDS -lt $end ] || te_die "the NameNode reports $(cl_hdfs_live) live DataNodes, not $2, after $3 s"
			sleep 0.5
		done
		echo "$2"
		;;
	*) usage "hdfs: want live or wait-live N SECONDS" ;;
	esac
	;;
*) usage "unknown command \"$cmd\"" ;;
esac
