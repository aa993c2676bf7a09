#!/usr/bin/env bash
# testenv/ycsb.sh load|run [YCSB ARGS...]
# Run YCSB 0.17.0 (site.ycsb:core from Maven Central) against the testenv HBase
# (ZooKeeper 127.0.0.1:2181) with testenv's HBase 2 binding (java/YCSBHBaseClient.java,
# compiled against hbase-shaded-client of the server's version; YCSB's own hbase20
# binding is not on Maven Central). load = -load, run = -t. Defaults, all overridable by
# later -P files or -p: workload=site.ycsb.workloads.CoreWorkload, table=usertable,
# columnfamily=family, -db YCSBHBaseClient. Create the table first:
#   testenv/hbase-create-table.sh usertable family 16
#   testenv/ycsb.sh load -P workloads/workloada -p recordcount=100000 -threads 8 -s
#   testenv/ycsb.sh run  -P workloads/workloada -p operationcount=100000 -threads 8 -s
# Extra JVM options: YCSB_JAVA_OPTS (default -Xmx1g).
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case ${1:-} in
load) phase=-load ;;
run) phase=-t ;;
*) te_die "usage: testenv/ycsb.sh load|run [YCSB args...] (got \"${1:-}\")" ;;
esac
shift
te_port_open 2181 || te_die "HBase ZooKeeper is not reachable at 127.0.0.1:2181; start it with testenv/up.sh hbase"
te_check_java
te_classpath ycsb hbase.version "$TE_HBASE_CLIENT_VERSIONS"
te_javac ycsb-hbase "$TE_CP" "$TE_DIR/java/YCSBHBaseClient.java"
conf=$TE_CACHE/conf/ycsb
mkdir -p "$conf"
te_xml_props "$conf/hbase-site.xml" hbase.zookeeper.quorum=127.0.0.1 hbase.zookeeper.property.clientPort=2181
te_log4j2 "$conf/log4j2.properties" error
cat >"$conf/defaults.properties" <<PROPS
workload=site.ycsb.workloads.CoreWorkload
table=usertable
columnfamily=family
PROPS
# shellcheck disable=SC2086
exec "$TE_JAVA" "${TE_HBASE_JFLAGS[@]}" ${YCSB_JAVA_OPTS:--Xmx1g} \
	-Dlog4j2.configurationFile="$conf/log4j2.properties" \
	-cp "$conf:$TE_CLASSES:$TE_CP" site.ycsb.Client "$phase" -db YCSBHBaseClient \
	-P "$conf/defaults.properties" "$@"
