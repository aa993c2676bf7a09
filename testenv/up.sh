#!/usr/bin/env bash
# testenv/up.sh NAME...: start real servers on 127.0.0.1 for integration tests and benchmarks.
# NAME is kafka, hdfs, hbase, hive or yarn (default: kafka hdfs hbase). Jars come from Maven Central and are
# cached in ${GOBENCH_CACHE:-~/.cache/gobench-testenv}; data, logs and pid files live in
# ${GOBENCH_RUN:-/tmp/gobench-testenv}/NAME. A server that is already up is left alone.
# Exits non-zero (with the tail of the server log) if a server does not become ready.
# testenv/up.sh --cluster [hdfs] [hbase] [kafka]: the multi-node cluster (README.md).
# testenv/up.sh --secure [kdc] [hdfs] [hbase] [kafka]: KDC + Kerberized/TLS servers (README.md).
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for f in "$TE_DIR"/srv/*.sh; do . "$f"; done
# --cluster [hdfs] [hbase] [kafka]: the multi-node cluster instead (srv/cluster-*.sh).
if [ "${1:-}" = --cluster ]; then shift; cl_up "$@"; exit $?; fi
# --secure [kdc] [hdfs] [hbase] [kafka]: the secured servers instead (srv/secure-*.sh).
if [ "${1:-}" = --secure ]; then shift; sec_up "$@"; exit $?; fi

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(kafka hdfs hbase)
for n in "${names[@]}"; do
	case $n in
	kafka | hdfs | hbase | hive | yarn) ;;
	*) te_die "unknown server \"$n\" (allowed: kafka, hdfs, hbase, hive, yarn)" ;;
	esac
done
rc=0
mkdir -p "$TE_RUN"
te_lock
for n in "${names[@]}"; do
	"${n}_up" || { te_log "$n: FAILED to start"; rc=1; }
done
exit $rc
