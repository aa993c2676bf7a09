#!/usr/bin/env bash
# testenv/status.sh: one line per testenv server: up/down, pid, RSS, address, log.
# Exit 0 if every server named (default: all) is up, 1 otherwise.
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# --cluster [hdfs] [hbase] [kafka]: the multi-node cluster's nodes instead.
if [ "${1:-}" = --cluster ]; then
	for f in "$TE_DIR"/srv/cluster-*.sh; do . "$f"; done
	shift
	cl_status "$@"
	exit $?
fi
# --secure [kdc] [hdfs] [hbase] [kafka]: the secured servers' nodes instead.
if [ "${1:-}" = --secure ]; then
	for f in "$TE_DIR"/srv/secure-*.sh; do . "$f"; done
	shift
	sec_status "$@"
	exit $?
fi
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(kafka hdfs hbase)
rc=0
line() { # NAME PIDFILE TAG ADDR LOG
	if te_pid_alive "$2" "$3"; then
		printf '%-8s up    pid %-7s RSS %5s MiB  %-22s log %s\n' "$1" "$(cat "$2")" "$(te_rss_mib "$2")" "$4" "$5"
	else
		printf '%-8s down\n' "$1"
		rc=1
	fi
}
for n in "${names[@]}"; do
	case $n in
	kafka) line kafka "$TE_RUN/kafka/pid" kafka 127.0.0.1:9092 "$TE_RUN/kafka/server.out" ;;
	hdfs)
		line hdfs-nn "$TE_RUN/hdfs/nn.pid" hdfs-nn 127.0.0.1:9000 "$TE_RUN/hdfs/nn.out"
		line hdfs-dn "$TE_RUN/hdfs/dn.pid" hdfs-dn 127.0.0.1:9866 "$TE_RUN/hdfs/dn.out"
		;;
	hbase) line hbase "$TE_RUN/hbase/pid" hbase "zk 127.0.0.1:2181" "$TE_RUN/hbase/master.out" ;;
	hive) line hive "$TE_RUN/hive/pid" hive 127.0.0.1:10000 "$TE_RUN/hive/server.out" ;;
	yarn)
		line yarn-rm "$TE_RUN/yarn/rm.pid" yarn-rm http://127.0.0.1:8088 "$TE_RUN/yarn/rm.out"
		line yarn-nm1 "$TE_RUN/yarn/nm1.pid" yarn-nm1 127.0.0.1:8041 "$TE_RUN/yarn/nm1.out"
		line yarn-nm2 "$TE_RUN/yarn/nm2.pid" yarn-nm2 127.0.0.1:8051 "$TE_RUN/yarn/nm2.out"
		;;
	*) te_die "unknown server \"$n\" (allowed: kafka, hdfs, hbase, hive, yarn)" ;;
	esac
done
exit $rc
