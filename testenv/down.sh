#!/usr/bin/env bash
# testenv/down.sh [NAME...]: stop the servers that up.sh started (by their recorded pid
# only) and remove their data. NAME is kafka, hdfs, hbase, hive or yarn (default: all). Stopping a
# server that is not running is not an error.
# testenv/down.sh --cluster [hdfs] [hbase] [kafka]: the multi-node cluster (README.md).
# testenv/down.sh --secure [kdc] [hdfs] [hbase] [kafka]: KDC + Kerberized/TLS servers (README.md).
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for f in "$TE_DIR"/srv/*.sh; do . "$f"; done
# --cluster [hdfs] [hbase] [kafka]: the multi-node cluster instead (srv/cluster-*.sh).
if [ "${1:-}" = --cluster ]; then shift; cl_down "$@"; exit $?; fi
# --secure [kdc] [hdfs] [hbase] [kafka]: the secured servers instead (srv/secure-*.sh).
if [ "${1:-}" = --secure ]; then shift; sec_down "$@"; exit $?; fi

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(yarn hive hbase hdfs kafka)
for n in "${names[@]}"; do
	case $n in
	kafka | hdfs | hbase | hive | yarn) ;;
	*) te_die "unknown server \"$n\" (allowed: kafka, hdfs, hbase, hive, yarn)" ;;
	esac
done
mkdir -p "$TE_RUN"
te_lock
for n in "${names[@]}"; do
	"${n}_down"
done
exit 0
