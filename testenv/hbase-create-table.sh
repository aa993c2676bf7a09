#!/usr/bin/env bash
# testenv/hbase-create-table.sh [TABLE [FAMILY [NSPLITS]]] [--drop|--delete|--compact]
# Create an HBase table on the testenv HBase (ZooKeeper 127.0.0.1:2181), pre-split as
# YCSB's HBase README prescribes: NSPLITS split points "user"+(1000+i*(9999-1000)/NSPLITS).
# Defaults: usertable family 16. An existing table is kept unless --drop is given;
# --delete only disables and deletes TABLE; --compact creates nothing: it flushes TABLE,
# major-compacts it and waits until no compaction of it runs (bench/hbase.sh settles its
# tables so after their load).
# The helper (testenv/java/CreateTable.java) is compiled with javac against the HBase jars.
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mode=
args=()
for a in "$@"; do
	case $a in
	--drop | --delete | --compact) mode=$a ;;
	*) args+=("$a") ;;
	esac
done
table=${args[0]:-usertable}
family=${args[1]:-family}
nsplits=${args[2]:-16}
te_port_open 2181 || te_die "HBase ZooKeeper is not reachable at 127.0.0.1:2181; start it with testenv/up.sh hbase"
te_check_java
te_classpath hbase-server hbase.version "$TE_HBASE_VERSIONS"
te_javac create-table "$TE_CP" "$TE_DIR/java/CreateTable.java"
conf=$TE_CACHE/conf/hbase-client
mkdir -p "$conf"
te_xml_props "$conf/hbase-site.xml" hbase.zookeeper.quorum=127.0.0.1 hbase.zookeeper.property.clientPort=2181
te_log4j2 "$conf/log4j2.properties" error
exec "$TE_JAVA" "${TE_HBASE_JFLAGS[@]}" -Xmx256m -XX:TieredStopAtLevel=1 \
	-Dlog4j2.configurationFile="$conf/log4j2.properties" \
	-cp "$conf:$TE_CLASSES:$TE_CP" CreateTable "$table" "$family" "$nsplits" $mode
