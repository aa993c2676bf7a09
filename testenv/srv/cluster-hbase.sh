# shellcheck shell=bash
# testenv/srv/cluster-hbase.sh: the cluster mode's HBase, distributed: ZooKeeper
# (hbase-zk, 127.0.0.1:22181), an HMaster (hbase-master, 26000) and three RegionServers
# (hbase-rs1..3, 26021..26023), each its own JVM; hbase.rootdir (and so the WALs) on the
# cluster HDFS, so a killed RegionServer's edits are replayed. Web UIs off. Sourced after
# lib.sh, cluster-common.sh and cluster-hdfs.sh.

CL_ZK=127.0.0.1:22181
# The ZooKeeper session timeout of master and RegionServers: how long a SIGKILLed
# RegionServer stays "live" before the master recovers its regions (a restarted one is
# recognised at once: same host and port, new start code). Long enough for the stalls of
# a loaded 2-core machine, short enough for tests.
CL_ZK_SESSION_MS=${GOBENCH_CLUSTER_ZK_SESSION_MS:-30000}

# cl_hbase_site FILE NODE: hbase-site.xml of a server node (NODE's ports and temp dir).
cl_hbase_site() {
	local f=$1 n=$2 rsport=26020
	[[ $n == hbase-rs* ]] && rsport=$(cl_port "$n")
	te_xml_props "$f" \
		hbase.cluster.distributed=true \
		"hbase.rootdir=hdfs://$CL_NN/hbase" \
		"hbase.tmp.dir=$CL_DIR/$n/tmp" \
		hbase.zookeeper.quorum=127.0.0.1 \
		hbase.zookeeper.property.clientPort=22181 \
		"zookeeper.session.timeout=$CL_ZK_SESSION_MS" \
		hbase.master.port=26000 \
		hbase.master.info.port=-1 \
		"hbase.regionserver.port=$rsport" \
		hbase.regionserver.info.port=-1 \
		hbase.master.ipc.address=127.0.0.1 \
		hbase.regionserver.ipc.address=127.0.0.1 \
		hbase.master.hostname=localhost \
		hbase.unsafe.regionserver.hostname=localhost \
		hbase.master.wait.on.regionservers.mintostart=3 \
		dfs.replication=3 \
		dfs.client.use.datanode.hostname=false
}

# cl_hbase_client_site DIR: hbase-site.xml and log4j2.properties for the admin helper.
cl_hbase_client_conf() {
	mkdir -p "$1"
	te_xml_props "$1/hbase-site.xml" \
		hbase.zookeeper.quorum=127.0.0.1 \
		hbase.zookeeper.property.clientPort=22181 \
		hbase.client.retries.number=10 \
		hbase.rpc.timeout=20000 \
		hbase.client.operation.timeout=60000 \
		hbase.client.meta.operation.timeout=60000
	te_log4j2 "$1/log4j2.properties" error
}

# cl_hbase_define NODE HEAP GC MAIN...: the node's command line.
cl_hbase_define() {
	local n=$1 heap=$2 gc=$3 d=$CL_DIR/$1
	shift 3
	cl_define "$n" "$TE_JAVA" "-Dgobench.testenv=cluster-$n" "${TE_HBASE_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" \
		-Xms64m "-Xmx$heap" "$gc" "-Djava.io.tmpdir=$d/tmp" \
		-Dhbase.log.dir="$d/logs" -Dlog4j2.configurationFile="$d/conf/log4j2.properties" \
		-cp "$d/conf:$TE_CP" "$@"
}

# cl_hbase_admin ARGS...: run the Java admin helper (java/ClusterAdmin.java) once.
cl_hbase_admin() {
	te_check_java
	te_classpath hbase-server hbase.version "$TE_HBASE_VERSIONS"
	te_javac cluster-admin "$TE_CP" "$TE_DIR/java/AdminTool.java" "$TE_DIR/java/ClusterAdmin.java" "$TE_DIR/java/CreateTable.java"
	local conf=$TE_CACHE/conf/cluster-hbase-client
	cl_hbase_client_conf "$conf"
	"$TE_JAVA" "${TE_HBASE_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
		"-Djava.io.tmpdir=$(cl_tool_tmp)" -Dlog4j2.configurationFile="$conf/log4j2.properties" \
		-Dgobench.cluster.nodes=hbase-master=26000,hbase-rs1=26021,hbase-rs2=26022,hbase-rs3=26023 \
		-cp "$conf:$TE_CLASSES:$TE_CP" ClusterAdmin "$@"
}

# cl_hbase_cluster_ready: 3 RegionServers registered, hbase:meta assigned and readable,
# nothing in transition (the admin helper polls, within CL_TIMEOUT).
cl_hbase_cluster_ready() {
	cl_hbase_admin wait-ready 3 "$CL_TIMEOUT" >&2 || {
		te_log "cluster hbase: not ready (3 RegionServers, meta assigned) after ${CL_TIMEOUT}s"
		cl_tail hbase-master
		return 1
	}
}

cl_hbase_up() {
	local t0=$SECONDS n r d
	cl_resume hbase
	r=$?
	[ $r = 0 ] && return 0
	[ $r = 3 ] && return 1
	cl_free_ports $(cl_nodes hbase) || return 1
	CL_FRESH=1
	te_check_java
	te_classpath hbase-server hbase.version "$TE_HBASE_VERSIONS"
	for n in $(cl_nodes hbase); do
		d=$CL_DIR/$n
		rm -rf "$d"
		mkdir -p "$d/conf" "$d/tmp" "$d/logs" "$d/data"
		te_log4j2 "$d/conf/log4j2.properties" info
		[ "$n" = hbase-zk ] || cl_hbase_site "$d/conf/hbase-site.xml" "$n"
	done
	# A fresh HBase on a possibly used HDFS: its old root dir would be taken for this
	# cluster's (and name servers that no longer exist).
	cl_hdfs_rm /hbase || return 1
	cat >"$CL_DIR/hbase-zk/conf/zoo.cfg" <<EOF
tickTime=2000
dataDir=$CL_DIR/hbase-zk/data
clientPort=22181
clientPortAddress=127.0.0.1
maxClientCnxns=0
maxSessionTimeout=120000
admin.enableServer=false
4lw.commands.whitelist=ruok,srvr,mntr
EOF
	cl_hbase_define hbase-zk "$CL_ZK_HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
		-Dzookeeper.admin.enableServer=false org.apache.zookeeper.server.ZooKeeperServerMain "$CL_DIR/hbase-zk/conf/zoo.cfg"
	cl_hbase_define hbase-master "$CL_MASTER_HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
		-Dproc_master org.apache.hadoop.hbase.master.HMaster start
	for n in hbase-rs1 hbase-rs2 hbase-rs3; do
		cl_hbase_define "$n" "$CL_RS_HEAP" -XX:+UseG1GC "-XX:MaxDirectMemorySize=$CL_RS_DIRECT" \
			-Dproc_regionserver org.apache.hadoop.hbase.regionserver.HRegionServer start
	done
	cl_spawn hbase-zk
	cl_wait_nodes "$CL_TIMEOUT" hbase-zk || return 1
	for n in hbase-master hbase-rs1 hbase-rs2 hbase-rs3; do cl_spawn "$n"; done
	cl_wait_nodes "$CL_TIMEOUT" hbase-master hbase-rs1 hbase-rs2 hbase-rs3 || return 1
	cl_hbase_cluster_ready || return 1
	te_log "cluster hbase $TE_VERSION: ZooKeeper $CL_ZK, master 127.0.0.1:26000, RegionServers 26021-26023, in $((SECONDS - t0)) s, RSS $(cl_rss_total $(cl_nodes hbase)) MiB"
}
