# shellcheck shell=bash
# testenv/srv/hbase.sh: HBase 2.6 standalone (master, regionserver and ZooKeeper in one
# JVM): ZooKeeper 127.0.0.1:2181, master 127.0.0.1:16000, regionserver 127.0.0.1:16020,
# web UIs off. Sourced by up.sh/down.sh after lib.sh.

HBASE_DIR=$TE_RUN/hbase
HBASE_PORTS="2181 16000 16020"
HBASE_HEAP=${GOBENCH_HBASE_HEAP:-2g}

# hbase_site FILE: the client-side hbase-site.xml (ZooKeeper quorum only).
hbase_client_site() {
	te_xml_props "$1" \
		hbase.zookeeper.quorum=127.0.0.1 \
		hbase.zookeeper.property.clientPort=2181
}

hbase_ready() {
	grep -q 'Master has completed initialization' "$HBASE_DIR/master.out" && te_port_open 16020 && te_port_open 2181
}

hbase_up() {
	local d=$HBASE_DIR p t0 cp
	if te_pid_alive "$d/pid" hbase; then
		if hbase_ready; then
			te_log "hbase: already up (pid $(cat "$d/pid")), ZooKeeper 127.0.0.1:2181"
			return 0
		fi
		te_log "hbase: pid $(cat "$d/pid") is starting; waiting for it"
		te_wait "${GOBENCH_UP_TIMEOUT:-240}" hbase "$d/pid" hbase "$d/master.out" hbase_ready || return 1
		te_log "hbase: ready, ZooKeeper 127.0.0.1:2181"
		return 0
	fi
	for p in $HBASE_PORTS; do
		if te_port_open "$p"; then
			te_log "hbase: port 127.0.0.1:$p is already in use by another process ($(te_port_owner "$p")) that this testenv (GOBENCH_RUN=$TE_RUN) did not start; stop it first"
			return 1
		fi
	done
	te_check_java
	te_classpath hbase-server hbase.version "$TE_HBASE_VERSIONS"
	rm -rf "$d"
	mkdir -p "$d/conf" "$d/logs" "$d/tmp"
	te_xml_props "$d/conf/hbase-site.xml" \
		hbase.cluster.distributed=false \
		"hbase.rootdir=file://$d/root" \
		"hbase.tmp.dir=$d/tmp" \
		"hbase.zookeeper.property.dataDir=$d/zk" \
		hbase.zookeeper.quorum=127.0.0.1 \
		hbase.zookeeper.property.clientPort=2181 \
		hbase.zookeeper.property.clientPortAddress=127.0.0.1 \
		hbase.unsafe.stream.capability.enforce=false \
		hbase.master.port=16000 \
		hbase.master.info.port=-1 \
		hbase.regionserver.port=16020 \
		hbase.regionserver.info.port=-1 \
		hbase.master.ipc.address=127.0.0.1 \
		hbase.regionserver.ipc.address=127.0.0.1 \
		hbase.master.hostname=localhost \
		hbase.unsafe.regionserver.hostname=localhost \
		hbase.localcluster.assign.random.ports=false \
		hbase.zookeeper.property.tickTime=6000 \
		zookeeper.session.timeout.localHBaseCluster=120000
	# Standalone HBase forces its ZooKeeper session timeout to
	# zookeeper.session.timeout.localHBaseCluster (default 10 s), and ZooKeeper caps it at
	# 20 ticks (default 40 s). On a 2-core machine shared with compilers, stalls of 20-70 s
	# were seen: the sessions expired and master + regionserver aborted. 120 s survives them.
	te_log4j2 "$d/conf/log4j2.properties" info
	hbase_client_site "$d/client-site.xml"
	cp="$d/conf:$TE_CP"
	t0=$SECONDS
	te_start hbase "$d/master.out" "$d/pid" "$TE_JAVA" -Dgobench.testenv=hbase -Dproc_master \
		"${TE_HBASE_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Djava.io.tmpdir="$d/tmp" "-Xms$HBASE_HEAP" "-Xmx$HBASE_HEAP" -XX:MaxDirectMemorySize=1g -XX:+UseG1GC \
		-Dhbase.log.dir="$d/logs" -Dhbase.root.logger=INFO,console \
		-Dlog4j2.configurationFile="$d/conf/log4j2.properties" \
		-cp "$cp" org.apache.hadoop.hbase.master.HMaster start
	te_wait "${GOBENCH_UP_TIMEOUT:-240}" hbase "$d/pid" hbase "$d/master.out" hbase_ready || { te_stop "$d/pid" hbase; return 1; }
	te_log "hbase $TE_VERSION: ready, ZooKeeper 127.0.0.1:2181, in $((SECONDS - t0)) s, RSS $(te_rss_mib "$d/pid") MiB"
}

hbase_down() {
	if te_stop "$HBASE_DIR/pid" hbase; then
		te_log "hbase: stopped"
	else
		te_log "hbase: not running (nothing to stop)"
	fi
	rm -rf "$HBASE_DIR"
}
