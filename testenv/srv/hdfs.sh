# shellcheck shell=bash
# testenv/srv/hdfs.sh: HDFS with the real daemons, one NameNode (RPC 127.0.0.1:9000) and
# one DataNode, permissions off. Sourced by up.sh/down.sh after lib.sh.

HDFS_DIR=$TE_RUN/hdfs
HDFS_PORTS="9000 9870 9866 9864 9867"
HDFS_HEAP=${GOBENCH_HDFS_HEAP:-512m}

# hdfs_conf DIR: write core-site.xml, hdfs-site.xml and log4j.properties into DIR.
hdfs_conf() {
	local c=$1 d=$HDFS_DIR
	mkdir -p "$c"
	te_xml_props "$c/core-site.xml" \
		fs.defaultFS=hdfs://127.0.0.1:9000 \
		"hadoop.tmp.dir=$d/tmp"
	te_xml_props "$c/hdfs-site.xml" \
		"dfs.namenode.name.dir=file://$d/nn" \
		"dfs.datanode.data.dir=file://$d/dn" \
		dfs.replication=1 \
		dfs.permissions.enabled=false \
		dfs.namenode.rpc-address=127.0.0.1:9000 \
		dfs.namenode.http-address=127.0.0.1:9870 \
		dfs.namenode.secondary.http-address=127.0.0.1:9868 \
		dfs.datanode.address=127.0.0.1:9866 \
		dfs.datanode.http.address=127.0.0.1:9864 \
		dfs.datanode.ipc.address=127.0.0.1:9867 \
		dfs.datanode.hostname=127.0.0.1 \
		dfs.client.use.datanode.hostname=false \
		dfs.namenode.datanode.registration.ip-hostname-check=false \
		dfs.namenode.safemode.extension=0 \
		dfs.namenode.safemode.min.datanodes=1 \
		dfs.namenode.fs-limits.min-block-size=131072 \
		dfs.heartbeat.interval=1
	te_log4j1 "$c/log4j.properties" INFO
	# The NameNode/DataNode HTTP servers need webapps/<name> as a classpath resource; the
	# tarball ships it in share/hadoop/hdfs/webapps, the Maven jars do not. Empty web apps
	# are enough for the daemons to start (the web UIs then show nothing).
	local w
	for w in hdfs datanode secondary journal; do
		mkdir -p "$c/webapps/$w/WEB-INF"
		cat >"$c/webapps/$w/WEB-INF/web.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="3.1"/>
EOF
	done
	mkdir -p "$c/webapps/static"
}

hdfs_nn_ready() {
	te_port_open 9000 && grep -q 'Safe mode is OFF' "$HDFS_DIR/nn.out"
}

hdfs_dn_ready() {
	te_port_open 9866 && grep -q 'Successfully sent block report' "$HDFS_DIR/dn.out"
}

hdfs_up() {
	local d=$HDFS_DIR p t0 cp
	if te_pid_alive "$d/nn.pid" hdfs-nn && te_pid_alive "$d/dn.pid" hdfs-dn; then
		if hdfs_nn_ready && hdfs_dn_ready; then
			te_log "hdfs: already up (NameNode pid $(cat "$d/nn.pid"), DataNode pid $(cat "$d/dn.pid")) on 127.0.0.1:9000"
			return 0
		fi
		te_log "hdfs: starting in another process; waiting for it"
		te_wait "${GOBENCH_UP_TIMEOUT:-120}" "hdfs namenode" "$d/nn.pid" hdfs-nn "$d/nn.out" hdfs_nn_ready || return 1
		te_wait "${GOBENCH_UP_TIMEOUT:-120}" "hdfs datanode" "$d/dn.pid" hdfs-dn "$d/dn.out" hdfs_dn_ready || return 1
		te_log "hdfs: ready on 127.0.0.1:9000"
		return 0
	fi
	if te_pid_alive "$d/nn.pid" hdfs-nn || te_pid_alive "$d/dn.pid" hdfs-dn; then
		te_log "hdfs: only one of NameNode/DataNode is running; restarting both"
		hdfs_down
	fi
	for p in $HDFS_PORTS; do
		if te_port_open "$p"; then
			te_log "hdfs: port 127.0.0.1:$p is already in use by another process ($(te_port_owner "$p")) that this testenv (GOBENCH_RUN=$TE_RUN) did not start; stop it first"
			return 1
		fi
	done
	te_check_java
	te_classpath hdfs-server hadoop.version "$TE_HADOOP_VERSIONS"
	rm -rf "$d"
	mkdir -p "$d/logs" "$d/tmp"
	hdfs_conf "$d/conf"
	cp="$d/conf:$TE_CP"
	t0=$SECONDS
	if ! "$TE_JAVA" "${TE_HADOOP_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Djava.io.tmpdir="$d/tmp" -Xmx256m -XX:TieredStopAtLevel=1 -Dhadoop.log.dir="$d/logs" \
		-cp "$cp" org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive \
		>"$d/format.out" 2>&1; then
		te_log "hdfs: NameNode format failed:"
		tail -n 30 "$d/format.out" >&2
		return 1
	fi
	te_start "hdfs namenode" "$d/nn.out" "$d/nn.pid" "$TE_JAVA" -Dgobench.testenv=hdfs-nn \
		"${TE_HADOOP_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Djava.io.tmpdir="$d/tmp" "-Xms$HDFS_HEAP" "-Xmx$HDFS_HEAP" -XX:+UseSerialGC \
		-Dhadoop.log.dir="$d/logs" -Dhadoop.security.logger=INFO,NullAppender \
		-cp "$cp" org.apache.hadoop.hdfs.server.namenode.NameNode
	te_wait "${GOBENCH_UP_TIMEOUT:-120}" "hdfs namenode" "$d/nn.pid" hdfs-nn "$d/nn.out" te_port_open 9000 || { hdfs_stop_pids; return 1; }
	te_start "hdfs datanode" "$d/dn.out" "$d/dn.pid" "$TE_JAVA" -Dgobench.testenv=hdfs-dn \
		"${TE_HADOOP_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Djava.io.tmpdir="$d/tmp" "-Xms$HDFS_HEAP" "-Xmx$HDFS_HEAP" -XX:+UseSerialGC \
		-Dhadoop.log.dir="$d/logs" -Dhadoop.security.logger=INFO,NullAppender \
		-cp "$cp" org.apache.hadoop.hdfs.server.datanode.DataNode
	te_wait "${GOBENCH_UP_TIMEOUT:-120}" "hdfs datanode" "$d/dn.pid" hdfs-dn "$d/dn.out" hdfs_dn_ready || { hdfs_stop_pids; return 1; }
	te_wait "${GOBENCH_UP_TIMEOUT:-60}" "hdfs namenode safe mode" "$d/nn.pid" hdfs-nn "$d/nn.out" hdfs_nn_ready || { hdfs_stop_pids; return 1; }
	te_log "hdfs $TE_VERSION: ready on 127.0.0.1:9000 in $((SECONDS - t0)) s (format included), RSS NameNode $(te_rss_mib "$d/nn.pid") MiB + DataNode $(te_rss_mib "$d/dn.pid") MiB"
}

hdfs_stop_pids() {
	te_stop "$HDFS_DIR/dn.pid" hdfs-dn
	te_stop "$HDFS_DIR/nn.pid" hdfs-nn
	return 0
}

hdfs_down() {
	local any=0
	te_stop "$HDFS_DIR/dn.pid" hdfs-dn && any=1
	te_stop "$HDFS_DIR/nn.pid" hdfs-nn && any=1
	if [ $any = 1 ]; then
		te_log "hdfs: stopped"
	else
		te_log "hdfs: not running (nothing to stop)"
	fi
	rm -rf "$HDFS_DIR" "$TE_RUN/dfsio-tmp"
}
