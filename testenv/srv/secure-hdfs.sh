# shellcheck shell=bash
# testenv/srv/secure-hdfs.sh: Kerberized HDFS, one NameNode (hdfs-nn, RPC
# 127.0.0.1:28000, HTTPS 28470) and one DataNode (hdfs-dn, data 28010 with SASL data
# transfer protection, so no privileged ports; HTTPS 28475; IPC 28011). Principals
# nn/localhost and dn/localhost (both mapped to the superuser hdfs), SPNEGO
# HTTP/localhost; permissions on. Sourced after lib.sh and secure-common.sh.

SEC_NN=127.0.0.1:28000
# Kerberos principal -> short name: the NameNode and DataNode principals are the HDFS
# superuser "hdfs"; everyone else its first component (jason@GOBENCH.TEST -> jason).
# shellcheck disable=SC2016
SEC_AUTH_TO_LOCAL='RULE:[2:$1@$0](nn@GOBENCH.TEST)s/.*/hdfs/ RULE:[2:$1@$0](dn@GOBENCH.TEST)s/.*/hdfs/ DEFAULT'
# What the client configuration files ask for (the servers accept SEC_QOP).
SEC_CLIENT_QOP=${GOBENCH_SECURE_CLIENT_QOP:-authentication}

# sec_hdfs_server_conf DIR: core-site.xml, hdfs-site.xml, ssl-server.xml, log4j and the
# empty web apps (see srv/hdfs.sh) of the NameNode and the DataNode.
sec_hdfs_server_conf() {
	local c=$1 sp w
	sp=$(cat "$(sec_secret store.password)")
	mkdir -p "$c"
	te_xml_props "$c/core-site.xml" \
		"fs.defaultFS=hdfs://$SEC_NN" \
		"hadoop.tmp.dir=$SEC_DIR/hdfs-nn/tmp" \
		hadoop.security.authentication=kerberos \
		hadoop.security.authorization=true \
		"hadoop.security.auth_to_local=$SEC_AUTH_TO_LOCAL" \
		"hadoop.rpc.protection=$SEC_QOP"
	te_xml_props "$c/hdfs-site.xml" \
		"dfs.namenode.name.dir=file://$SEC_DIR/hdfs-nn/data" \
		"dfs.datanode.data.dir=file://$SEC_DIR/hdfs-dn/data" \
		dfs.replication=1 \
		dfs.permissions.enabled=true \
		dfs.namenode.rpc-address=$SEC_NN \
		dfs.namenode.https-address=127.0.0.1:28470 \
		dfs.namenode.http-address=127.0.0.1:28870 \
		dfs.namenode.secondary.http-address=127.0.0.1:28868 \
		dfs.namenode.secondary.https-address=127.0.0.1:28869 \
		dfs.datanode.address=127.0.0.1:28010 \
		dfs.datanode.https.address=127.0.0.1:28475 \
		dfs.datanode.http.address=127.0.0.1:28864 \
		dfs.datanode.ipc.address=127.0.0.1:28011 \
		dfs.datanode.hostname=127.0.0.1 \
		dfs.client.use.datanode.hostname=false \
		dfs.namenode.datanode.registration.ip-hostname-check=false \
		dfs.namenode.safemode.extension=0 \
		dfs.namenode.fs-limits.min-block-size=131072 \
		dfs.heartbeat.interval=1 \
		dfs.block.access.token.enable=true \
		"dfs.namenode.kerberos.principal=$(sec_principal nn)" \
		"dfs.namenode.keytab.file=$(sec_keytab nn)" \
		"dfs.datanode.kerberos.principal=$(sec_principal dn)" \
		"dfs.datanode.keytab.file=$(sec_keytab dn)" \
		"dfs.web.authentication.kerberos.principal=$(sec_principal HTTP)" \
		"dfs.web.authentication.kerberos.keytab=$(sec_keytab HTTP)" \
		"dfs.namenode.kerberos.internal.spnego.principal=$(sec_principal HTTP)" \
		"dfs.data.transfer.protection=$SEC_QOP" \
		dfs.http.policy=HTTPS_ONLY
	(umask 077 && te_xml_props "$c/ssl-server.xml" \
		"ssl.server.keystore.location=$SEC_DIR/tls/server.jks" \
		"ssl.server.keystore.password=$sp" \
		"ssl.server.keystore.keypassword=$sp" \
		ssl.server.keystore.type=jks \
		"ssl.server.truststore.location=$SEC_DIR/tls/truststore.jks" \
		"ssl.server.truststore.password=$sp" \
		ssl.server.truststore.type=jks)
	te_log4j1 "$c/log4j.properties" INFO
	cat >>"$c/log4j.properties" <<'EOF'
log4j.logger.org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace=WARN
log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=WARN
EOF
	for w in hdfs datanode secondary journal; do
		mkdir -p "$c/webapps/$w/WEB-INF"
		echo '<web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="3.1"/>' >"$c/webapps/$w/WEB-INF/web.xml"
	done
	mkdir -p "$c/webapps/static"
}

# sec_hdfs_client_conf: conf/core-site.xml and conf/hdfs-site.xml, as a user's cluster
# conf directory has them (field report 004 copies them into YCSB's conf dir).
sec_hdfs_client_conf() {
	local c=$SEC_DIR/conf
	mkdir -p "$c"
	te_xml_props "$c/core-site.xml" \
		fs.defaultFS=hdfs://localhost:28000 \
		hadoop.security.authentication=kerberos \
		hadoop.security.authorization=true \
		"hadoop.security.auth_to_local=$SEC_AUTH_TO_LOCAL" \
		"hadoop.rpc.protection=$SEC_CLIENT_QOP"
	te_xml_props "$c/hdfs-site.xml" \
		"dfs.namenode.kerberos.principal=nn/_HOST@$SEC_REALM" \
		"dfs.datanode.kerberos.principal=dn/_HOST@$SEC_REALM" \
		"dfs.data.transfer.protection=$SEC_CLIENT_QOP" \
		dfs.replication=1 \
		dfs.client.use.datanode.hostname=false \
		dfs.block.access.token.enable=true
}

# sec_hdfs_define NODE HEAP MAIN: the node's command line.
sec_hdfs_define() {
	local n=$1 heap=$2 main=$3 d=$SEC_DIR/$1
	sec_java_krb
	sec_define "$n" "$TE_JAVA" "-Dgobench.testenv=secure-$n" "${TE_HADOOP_JFLAGS[@]}" "${SEC_KRB_JFLAGS[@]}" \
		"${TE_TMP_JFLAGS[@]}" -Xms64m "-Xmx$heap" -XX:+UseSerialGC "-Djava.io.tmpdir=$d/tmp" \
		"-Dhadoop.log.dir=$d/logs" -Dhadoop.security.logger=INFO,NullAppender \
		-cp "$d/conf:$TE_CP" "$main"
}

# sec_hdfs_shell [--as USER] COMMAND-LINE...: run FsShell commands (one per argument,
# e.g. "-mkdir -p /x") in one JVM (java/SecureFsShell.java), logged in from USER's
# keytab (default nn, the superuser), with the client configuration. --as ticket: no
# keytab; the ticket cache KRB5CCNAME names (none there: refused, as without kinit).
sec_hdfs_shell() {
	local who=nn
	if [ "${1:-}" = --as ]; then
		who=$2
		shift 2
	fi
	te_check_java
	te_classpath hdfs-server hadoop.version "$TE_HADOOP_VERSIONS"
	te_javac secure-fsshell "$TE_CP" "$TE_DIR/java/SecureFsShell.java"
	sec_java_krb
	local login=("-Dgobench.principal=$(sec_principal "$who")" "-Dgobench.keytab=$(sec_keytab "$who")")
	[ "$who" = ticket ] && login=()
	mkdir -p "$SEC_DIR/tools"
	te_log4j1 "$SEC_DIR/tools/log4j.properties" WARN
	"$TE_JAVA" "${TE_HADOOP_JFLAGS[@]}" "${SEC_KRB_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Xmx256m -XX:TieredStopAtLevel=1 \
		-XX:+UseSerialGC "-Djava.io.tmpdir=$(sec_tool_tmp)" \
		-Dlog4j.configuration="file:$SEC_DIR/tools/log4j.properties" \
		"${login[@]}" -cp "$SEC_DIR/conf:$TE_CLASSES:$TE_CP" SecureFsShell "$@"
}

# sec_hdfs_setup: the directories the tests and tools use, as the superuser: /user/USER
# (owner USER, 700) for each test user, /benchmarks (jason, 755: TestDFSIO's default
# base), /tmp (1777). Retried until the NameNode has left safe mode (SEC_TIMEOUT).
sec_hdfs_setup() {
	local end=$((SECONDS + SEC_TIMEOUT)) u cmds=() out
	cmds+=("-mkdir -p /tmp /benchmarks $(for u in $SEC_USERS; do printf '/user/%s ' "$u"; done)")
	for u in $SEC_USERS; do
		cmds+=("-chown $u:$u /user/$u" "-chmod 700 /user/$u")
	done
	cmds+=("-chown jason:jason /benchmarks" "-chmod 1777 /tmp")
	until out=$(sec_hdfs_shell "${cmds[@]}" 2>&1); do
		if [ $SECONDS -ge $end ]; then
			te_log "secure hdfs: the admin commands (as nn) failed for ${SEC_TIMEOUT}s; last output:"
			tail -n 15 <<<"$out" >&2
			return 1
		fi
		sleep 2
	done
}

sec_hdfs_up() {
	local t0=$SECONDS n
	if sec_alive hdfs-nn && sec_alive hdfs-dn; then
		sec_wait_nodes "$SEC_TIMEOUT" hdfs-nn hdfs-dn || return 1
		te_log "secure hdfs: up (NameNode pid $(sec_pid hdfs-nn), DataNode pid $(sec_pid hdfs-dn)) on $SEC_NN"
		return 0
	fi
	sec_down_nodes hdfs >/dev/null 2>&1
	sec_free_ports hdfs-nn hdfs-dn || return 1
	te_check_java
	te_classpath hdfs-server hadoop.version "$TE_HADOOP_VERSIONS"
	for n in hdfs-nn hdfs-dn; do
		mkdir -p "$SEC_DIR/$n/tmp" "$SEC_DIR/$n/logs"
		sec_hdfs_server_conf "$SEC_DIR/$n/conf"
	done
	sec_hdfs_client_conf
	sec_java_krb
	if ! "$TE_JAVA" "${TE_HADOOP_JFLAGS[@]}" "${SEC_KRB_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Xmx256m -XX:TieredStopAtLevel=1 \
		-XX:+UseSerialGC "-Djava.io.tmpdir=$SEC_DIR/hdfs-nn/tmp" -Dhadoop.log.dir="$SEC_DIR/hdfs-nn/logs" \
		-cp "$SEC_DIR/hdfs-nn/conf:$TE_CP" org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive \
		>"$SEC_DIR/hdfs-nn/format.out" 2>&1; then
		te_log "secure hdfs: NameNode format failed:"
		tail -n 30 "$SEC_DIR/hdfs-nn/format.out" | cut -c1-300 >&2
		return 1
	fi
	sec_hdfs_define hdfs-nn "$SEC_NN_HEAP" org.apache.hadoop.hdfs.server.namenode.NameNode
	sec_hdfs_define hdfs-dn "$SEC_DN_HEAP" org.apache.hadoop.hdfs.server.datanode.DataNode
	sec_spawn hdfs-nn
	sec_wait_nodes "$SEC_TIMEOUT" hdfs-nn || return 1
	sec_spawn hdfs-dn
	sec_wait_nodes "$SEC_TIMEOUT" hdfs-dn || return 1
	sec_hdfs_setup || return 1
	te_log "secure hdfs $TE_VERSION: NameNode $SEC_NN (Kerberos, data transfer protection $SEC_QOP), in $((SECONDS - t0)) s (format included), RSS $(sec_rss_total hdfs-nn hdfs-dn) MiB"
}
