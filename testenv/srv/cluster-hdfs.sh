# shellcheck shell=bash
# testenv/srv/cluster-hdfs.sh: the cluster mode's HDFS: one NameNode (hdfs-nn, RPC
# 127.0.0.1:29000, HTTP 29870) and three DataNodes (hdfs-dn1..3, data 29101..29103),
# replication 3, permissions off. Sourced after lib.sh and cluster-common.sh.

CL_NN=127.0.0.1:29000

# cl_hdfs_conf NODE: core-site.xml, hdfs-site.xml, log4j.properties and the empty web
# apps (see srv/hdfs.sh) in $CL_DIR/NODE/conf.
cl_hdfs_conf() {
	local n=$1 d=$CL_DIR/$1 c=$CL_DIR/$1/conf i=1 w
	[[ $n == hdfs-dn* ]] && i=${n#hdfs-dn}
	mkdir -p "$c" "$d/tmp" "$d/logs"
	te_xml_props "$c/core-site.xml" \
		fs.defaultFS=hdfs://$CL_NN \
		"hadoop.tmp.dir=$d/tmp"
	# Dead DataNode after 2 x recheck + 10 x heartbeat = 20 s (default 10.5 min), stale
	# (avoided for reads and writes) after 5 s without a heartbeat.
	te_xml_props "$c/hdfs-site.xml" \
		"dfs.namenode.name.dir=file://$CL_DIR/hdfs-nn/data" \
		"dfs.datanode.data.dir=file://$d/data" \
		dfs.replication=3 \
		dfs.permissions.enabled=false \
		dfs.namenode.rpc-address=$CL_NN \
		dfs.namenode.http-address=127.0.0.1:29870 \
		dfs.namenode.secondary.http-address=127.0.0.1:29868 \
		dfs.datanode.address=127.0.0.1:2910$i \
		dfs.datanode.http.address=127.0.0.1:2920$i \
		dfs.datanode.ipc.address=127.0.0.1:2930$i \
		dfs.datanode.hostname=127.0.0.1 \
		dfs.client.use.datanode.hostname=false \
		dfs.namenode.datanode.registration.ip-hostname-check=false \
		dfs.namenode.safemode.extension=0 \
		dfs.namenode.fs-limits.min-block-size=131072 \
		dfs.heartbeat.interval=1 \
		dfs.namenode.heartbeat.recheck-interval=5000 \
		dfs.namenode.stale.datanode.interval=5000 \
		dfs.namenode.avoid.read.stale.datanode=true \
		dfs.namenode.avoid.write.stale.datanode=true
	te_log4j1 "$c/log4j.properties" INFO
	# One line per block operation and per NameNode call (HBase's WALs make many): off.
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

# cl_hdfs_jvm NODE HEAP MAIN: the node's command line.
cl_hdfs_define() {
	local n=$1 heap=$2 main=$3 d=$CL_DIR/$1
	cl_define "$n" "$TE_JAVA" "-Dgobench.testenv=cluster-$n" "${TE_HADOOP_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" \
		-Xms64m "-Xmx$heap" -XX:+UseSerialGC "-Djava.io.tmpdir=$d/tmp" \
		"-Dhadoop.log.dir=$d/logs" -Dhadoop.security.logger=INFO,NullAppender \
		-cp "$d/conf:$TE_CP" "$main"
}

# cl_hdfs_live: the NameNode's count of live DataNodes (JMX), empty if unknown.
cl_hdfs_live() {
	curl -sf -m 5 'http://127.0.0.1:29870/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState' 2>/dev/null |
		sed -n 's/.*"NumLiveDataNodes" *: *\([0-9]*\).*/\1/p'
}

# cl_hdfs_safemode: the NameNode is in safe mode (JMX NameNodeInfo.Safemode non-empty).
cl_hdfs_safemode() {
	local s
	s=$(curl -sf -m 5 'http://127.0.0.1:29870/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo' 2>/dev/null) || return 0
	[[ $s != *'"Safemode" : ""'* ]]
}

# cl_hdfs_cluster_ready: 3 live DataNodes and out of safe mode, within CL_TIMEOUT.
cl_hdfs_cluster_ready() {
	local end=$((SECONDS + CL_TIMEOUT)) live
	while :; do
		live=$(cl_hdfs_live)
		[ "$live" = 3 ] && ! cl_hdfs_safemode && return 0
		if [ $SECONDS -ge $end ]; then
			te_log "cluster hdfs: NameNode reports ${live:-?} live DataNodes (want 3) after ${CL_TIMEOUT}s"
			cl_tail hdfs-nn
			return 1
		fi
		sleep 0.5
	done
}

cl_hdfs_up() {
	local t0=$SECONDS n r
	cl_resume hdfs
	r=$?
	[ $r = 0 ] && return 0
	[ $r = 3 ] && return 1
	cl_free_ports $(cl_nodes hdfs) || return 1
	CL_FRESH=1
	te_check_java
	te_classpath hdfs-server hadoop.version "$TE_HADOOP_VERSIONS"
	for n in $(cl_nodes hdfs); do
		rm -rf "${CL_DIR:?}/$n"
		cl_hdfs_conf "$n"
	done
	if ! "$TE_JAVA" "${TE_HADOOP_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
		"-Djava.io.tmpdir=$CL_DIR/hdfs-nn/tmp" -Dhadoop.log.dir="$CL_DIR/hdfs-nn/logs" \
		-cp "$CL_DIR/hdfs-nn/conf:$TE_CP" org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive \
		>"$CL_DIR/hdfs-nn/format.out" 2>&1; then
		te_log "cluster hdfs: NameNode format failed:"
		tail -n 30 "$CL_DIR/hdfs-nn/format.out" >&2
		return 1
	fi
	cl_hdfs_define hdfs-nn "$CL_NN_HEAP" org.apache.hadoop.hdfs.server.namenode.NameNode
	for n in hdfs-dn1 hdfs-dn2 hdfs-dn3; do
		cl_hdfs_define "$n" "$CL_DN_HEAP" org.apache.hadoop.hdfs.server.datanode.DataNode
	done
	cl_spawn hdfs-nn
	cl_wait_nodes "$CL_TIMEOUT" hdfs-nn || return 1
	for n in hdfs-dn1 hdfs-dn2 hdfs-dn3; do cl_spawn "$n"; done
	cl_wait_nodes "$CL_TIMEOUT" hdfs-dn1 hdfs-dn2 hdfs-dn3 || return 1
	cl_hdfs_cluster_ready || return 1
	te_log "cluster hdfs $TE_VERSION: NameNode $CL_NN, 3 live DataNodes, in $((SECONDS - t0)) s (format included), RSS $(cl_rss_total $(cl_nodes hdfs)) MiB"
}

# cl_hdfs_rm PATH: delete PATH (recursively) on the cluster HDFS through WebHDFS (no
# JVM start); a missing path is not an error.
cl_hdfs_rm() {
	local r
	r=$(curl -sf -m 30 -X DELETE "http://127.0.0.1:29870/webhdfs/v1$1?op=DELETE&recursive=true&user.name=gobench") || {
		te_log "cluster hdfs: could not delete $1 through WebHDFS (http://127.0.0.1:29870)"
		return 1
	}
	[[ $r == *'"boolean"'* ]]
}
