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
# testenv/ycsb.sh --secure [USER] load|run [YCSB ARGS...]: against the secured HBase
# (up.sh --secure hbase) as field report 004 runs it: kinit -kt USER.keytab USER (default
# jason) into $GOBENCH_RUN/secure/ccache/USER, the secured conf dir (hbase-site.xml,
# core-site.xml, hdfs-site.xml) first on the classpath, table ycsb_hbase_ns:usertable.
# --secure-keytab [USER]: no kinit; YCSB's properties principal and keytab instead.
# testenv/ycsb.sh --cluster load|run [YCSB ARGS...]: against testenv's cluster (up.sh
# --cluster hbase; ZooKeeper 127.0.0.1:22181); YCSB_HBASE_SITE ("name=value ...") adds
# client properties to its hbase-site.xml (e.g. hbase.client.operation.timeout=30000).
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
secure=
login=()
zkport=2181
conf=$TE_CACHE/conf/ycsb
if [ "${1:-}" = --cluster ]; then
	shift
	zkport=22181
	conf=$TE_CACHE/conf/ycsb-cluster
fi
if [ "${1:-}" = --secure ] || [ "${1:-}" = --secure-keytab ]; then
	. "$TE_DIR/srv/secure-common.sh"
	secure=$1
	shift
	user=jason
	case ${1:-} in load | run | "") ;; *) user=$1; shift ;; esac
	[ -f "$(sec_keytab "$user")" ] || te_die "no keytab $(sec_keytab "$user") (users: $SEC_USERS); start the secured HBase with testenv/up.sh --secure hbase"
	sec_java_krb
	if [ "$secure" = --secure ]; then
		KRB5CCNAME=$(sec_kinit "$user") || exit 1
		export KRB5CCNAME
	else
		export KRB5CCNAME=$SEC_DIR/ccache/none-$user
		login=(-p "principal=$(sec_principal "$user")" -p "keytab=$(sec_keytab "$user")")
	fi
fi
case ${1:-} in
load) phase=-load ;;
run) phase=-t ;;
*) te_die "usage: testenv/ycsb.sh load|run [YCSB args...] (got \"${1:-}\")" ;;
esac
shift
if [ -n "$secure" ]; then
	sec_listening 28181 || te_die "the secured HBase's ZooKeeper is not listening on 127.0.0.1:28181; start it with testenv/up.sh --secure hbase"
elif [ "$zkport" = 22181 ]; then
	te_port_open 22181 || te_die "the cluster's ZooKeeper is not reachable at 127.0.0.1:22181; start it with testenv/up.sh --cluster hdfs hbase"
else
	te_port_open 2181 || te_die "HBase ZooKeeper is not reachable at 127.0.0.1:2181; start it with testenv/up.sh hbase"
fi
te_check_java
te_classpath ycsb hbase.version "$TE_HBASE_CLIENT_VERSIONS"
te_javac ycsb-hbase "$TE_CP" "$TE_DIR/java/YCSBHBaseClient.java"
table=usertable
cp=$conf
if [ -n "$secure" ]; then
	# The secured cluster's conf dir (hbase-site.xml, core-site.xml) instead of ours.
	conf=$TE_CACHE/conf/ycsb-secure
	table=ycsb_hbase_ns:usertable
	cp=$SEC_DIR/conf:$conf
fi
mkdir -p "$conf"
# shellcheck disable=SC2086
[ -n "$secure" ] || te_xml_props "$conf/hbase-site.xml" hbase.zookeeper.quorum=127.0.0.1 hbase.zookeeper.property.clientPort=$zkport ${YCSB_HBASE_SITE:-}
te_log4j2 "$conf/log4j2.properties" error
cat >"$conf/defaults.properties" <<PROPS
workload=site.ycsb.workloads.CoreWorkload
table=$table
columnfamily=family
PROPS
# shellcheck disable=SC2086
exec "$TE_JAVA" "${TE_HBASE_JFLAGS[@]}" ${secure:+"${SEC_KRB_JFLAGS[@]}"} ${YCSB_JAVA_OPTS:--Xmx1g} \
	-Dlog4j2.configurationFile="$conf/log4j2.properties" \
	-cp "$cp:$TE_CLASSES:$TE_CP" site.ycsb.Client "$phase" -db YCSBHBaseClient \
	-P "$conf/defaults.properties" "${login[@]}" "$@"
