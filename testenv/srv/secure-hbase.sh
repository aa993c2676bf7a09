# shellcheck shell=bash
# testenv/srv/secure-hbase.sh: HBase 2.6 with Kerberos and ACLs, distributed mode in
# three JVMs: ZooKeeper with SASL (hbase-zk, 127.0.0.1:28181, principal
# zookeeper/localhost), an HMaster (hbase-master, 28600) and a RegionServer (hbase-rs,
# 28620), both hbase/localhost, registered as localhost; SASL (Kerberos) on HBase's RPC,
# the AccessController on master, RegionServer and regions (superuser hbase). Root dir on
# the local file system (no HDFS needed). At start, as field report 004's admin does:
# namespace ycsb_hbase_ns, RWXCA on it for jason. Web UIs off. Sourced after lib.sh,
# secure-common.sh and secure-hdfs.sh (SEC_AUTH_TO_LOCAL, SEC_CLIENT_QOP).

SEC_ZK=127.0.0.1:28181

# sec_hbase_site FILE NODE: hbase-site.xml of the master or the RegionServer.
sec_hbase_site() {
	local f=$1 n=$2
	te_xml_props "$f" \
		hbase.cluster.distributed=true \
		"hbase.rootdir=file://$SEC_DIR/hbase-master/data/root" \
		"hbase.tmp.dir=$SEC_DIR/$n/tmp" \
		hbase.unsafe.stream.capability.enforce=false \
		hbase.zookeeper.quorum=127.0.0.1 \
		hbase.zookeeper.property.clientPort=28181 \
		zookeeper.session.timeout=60000 \
		hbase.master.port=28600 \
		hbase.master.info.port=-1 \
		hbase.regionserver.port=28620 \
		hbase.regionserver.info.port=-1 \
		hbase.master.ipc.address=127.0.0.1 \
		hbase.regionserver.ipc.address=127.0.0.1 \
		hbase.master.hostname=localhost \
		hbase.unsafe.regionserver.hostname=localhost \
		hbase.master.wait.on.regionservers.mintostart=1 \
		hadoop.security.authentication=kerberos \
		"hadoop.security.auth_to_local=$SEC_AUTH_TO_LOCAL" \
		hbase.security.authentication=kerberos \
		hbase.security.authorization=true \
		hbase.security.exec.permission.checks=true \
		"hbase.rpc.protection=$SEC_QOP" \
		"hbase.master.kerberos.principal=$(sec_principal hbase)" \
		"hbase.master.keytab.file=$(sec_keytab hbase)" \
		"hbase.regionserver.kerberos.principal=$(sec_principal hbase)" \
		"hbase.regionserver.keytab.file=$(sec_keytab hbase)" \
		hbase.superuser=hbase \
		hbase.coprocessor.master.classes=org.apache.hadoop.hbase.security.access.AccessController \
		hbase.coprocessor.region.classes=org.apache.hadoop.hbase.security.token.TokenProvider,org.apache.hadoop.hbase.security.access.AccessController \
		hbase.coprocessor.regionserver.classes=org.apache.hadoop.hbase.security.access.AccessController
}

# sec_hbase_client_conf: conf/hbase-site.xml as a user's cluster conf has it: the
# ZooKeeper quorum and the principals with _HOST (replaced by the server's host name).
sec_hbase_client_conf() {
	local c=$SEC_DIR/conf
	mkdir -p "$c"
	te_xml_props "$c/hbase-site.xml" \
		hbase.zookeeper.quorum=localhost \
		hbase.zookeeper.property.clientPort=28181 \
		hadoop.security.authentication=kerberos \
		hbase.security.authentication=kerberos \
		hbase.security.authorization=true \
		"hbase.rpc.protection=$SEC_CLIENT_QOP" \
		"hbase.master.kerberos.principal=hbase/_HOST@$SEC_REALM" \
		"hbase.regionserver.kerberos.principal=hbase/_HOST@$SEC_REALM"
}

# sec_jaas FILE SECTION PRINCIPAL KEYTAB: a JAAS file with one Krb5LoginModule section.
sec_jaas() {
	cat >"$1" <<EOF
$2 {
  com.sun.security.auth.module.Krb5LoginModule required
  useKeyTab=true
  storeKey=true
  useTicketCache=false
  keyTab="$4"
  principal="$3";
};
EOF
}

sec_hbase_define() {
	local n=$1 heap=$2 gc=$3 d=$SEC_DIR/$1
	shift 3
	sec_java_krb
	sec_define "$n" "$TE_JAVA" "-Dgobench.testenv=secure-$n" "${TE_HBASE_JFLAGS[@]}" "${SEC_KRB_JFLAGS[@]}" \
		"${TE_TMP_JFLAGS[@]}" -Xms64m "-Xmx$heap" "$gc" "-Djava.io.tmpdir=$d/tmp" \
		-Djava.security.auth.login.config="$d/conf/jaas.conf" \
		-Dhbase.log.dir="$d/logs" -Dlog4j2.configurationFile="$d/conf/log4j2.properties" \
		-cp "$d/conf:$TE_CP" "$@"
}

# sec_hbase_admin [--as USER|ticket] COMMAND ARGS... | -: java/SecureHBaseAdmin.java
# logged in from USER's keytab (default hbase, the superuser), with conf/.
sec_hbase_admin() {
	local who=hbase
	if [ "${1:-}" = --as ]; then
		who=$2
		shift 2
	fi
	local login=("-Dgobench.principal=$(sec_principal "$who")" "-Dgobench.keytab=$(sec_keytab "$who")")
	[ "$who" = ticket ] && login=()
	te_check_java
	te_classpath hbase-server hbase.version "$TE_HBASE_VERSIONS"
	te_javac secure-hbase-admin "$TE_CP" "$TE_DIR/java/AdminTool.java" "$TE_DIR/java/SecureHBaseAdmin.java" "$TE_DIR/java/CreateTable.java"
	sec_java_krb
	mkdir -p "$SEC_DIR/tools"
	te_log4j2 "$SEC_DIR/tools/log4j2.properties" error
	"$TE_JAVA" "${TE_HBASE_JFLAGS[@]}" "${SEC_KRB_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Xmx256m -XX:TieredStopAtLevel=1 \
		-XX:+UseSerialGC "-Djava.io.tmpdir=$(sec_tool_tmp)" -Dlog4j2.configurationFile="$SEC_DIR/tools/log4j2.properties" \
		"${login[@]}" -cp "$SEC_DIR/conf:$TE_CLASSES:$TE_CP" SecureHBaseAdmin "$@"
}

sec_hbase_up() {
	local t0=$SECONDS n d
	if sec_alive hbase-zk && sec_alive hbase-master && sec_alive hbase-rs; then
		sec_wait_nodes "$SEC_TIMEOUT" hbase-zk hbase-master hbase-rs || return 1
		te_log "secure hbase: up (master pid $(sec_pid hbase-master)), ZooKeeper $SEC_ZK"
		return 0
	fi
	sec_down_nodes hbase >/dev/null 2>&1
	sec_free_ports $(sec_nodes hbase) || return 1
	te_check_java
	te_classpath hbase-server hbase.version "$TE_HBASE_VERSIONS"
	for n in $(sec_nodes hbase); do
		d=$SEC_DIR/$n
		mkdir -p "$d/conf" "$d/tmp" "$d/logs" "$d/data"
		te_log4j2 "$d/conf/log4j2.properties" info
	done
	sec_jaas "$SEC_DIR/hbase-zk/conf/jaas.conf" Server "$(sec_principal zookeeper)" "$(sec_keytab zookeeper)"
	cat >"$SEC_DIR/hbase-zk/conf/zoo.cfg" <<EOF
tickTime=2000
dataDir=$SEC_DIR/hbase-zk/data
clientPort=28181
clientPortAddress=127.0.0.1
maxClientCnxns=0
maxSessionTimeout=120000
admin.enableServer=false
4lw.commands.whitelist=ruok,srvr,mntr
authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider
kerberos.removeHostFromPrincipal=true
kerberos.removeRealmFromPrincipal=true
EOF
	for n in hbase-master hbase-rs; do
		sec_hbase_site "$SEC_DIR/$n/conf/hbase-site.xml" "$n"
		# UserGroupInformation reads hadoop.security.authentication from core-site.xml
		# only: without it the servers run as the OS user, SIMPLE ("Found no valid
		# authentication method from options").
		te_xml_props "$SEC_DIR/$n/conf/core-site.xml" hadoop.security.authentication=kerberos \
			"hadoop.security.auth_to_local=$SEC_AUTH_TO_LOCAL"
		sec_jaas "$SEC_DIR/$n/conf/jaas.conf" Client "$(sec_principal hbase)" "$(sec_keytab hbase)"
	done
	# core-site.xml too: HBase's client takes hadoop.security.authentication from it (the
	# reason field report 004 copies it into YCSB's conf dir).
	sec_hdfs_client_conf
	sec_hbase_client_conf
	sec_hbase_define hbase-zk "$SEC_ZK_HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
		-Dzookeeper.admin.enableServer=false \
		-Dzookeeper.authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider \
		org.apache.zookeeper.server.ZooKeeperServerMain "$SEC_DIR/hbase-zk/conf/zoo.cfg"
	sec_hbase_define hbase-master "$SEC_MASTER_HEAP" -XX:+UseSerialGC -Dproc_master \
		org.apache.hadoop.hbase.master.HMaster start
	sec_hbase_define hbase-rs "$SEC_RS_HEAP" -XX:+UseG1GC -XX:MaxDirectMemorySize=256m -Dproc_regionserver \
		org.apache.hadoop.hbase.regionserver.HRegionServer start
	sec_spawn hbase-zk
	sec_wait_nodes "$SEC_TIMEOUT" hbase-zk || return 1
	sec_spawn hbase-master
	sec_spawn hbase-rs
	sec_wait_nodes "$SEC_TIMEOUT" hbase-master hbase-rs || return 1
	if ! sec_hbase_admin - >"$SEC_DIR/hbase-master/setup.out" 2>&1 <<EOF; then
wait-ready $SEC_TIMEOUT
create-namespace $SEC_NAMESPACE
grant jason RWXCA @$SEC_NAMESPACE
EOF
		te_log "secure hbase: the admin steps (as hbase) failed:"
		tail -n 10 "$SEC_DIR/hbase-master/setup.out" >&2
		sec_tail hbase-master
		return 1
	fi
	te_log "secure hbase $TE_VERSION: ZooKeeper $SEC_ZK (SASL), master 127.0.0.1:28600, RegionServer 28620 (Kerberos, ACLs; jason has RWXCA on @$SEC_NAMESPACE), in $((SECONDS - t0)) s, RSS $(sec_rss_total $(sec_nodes hbase)) MiB"
}
