# shellcheck shell=bash
# testenv/srv/hive.sh: HiveServer2 (binary Thrift on 127.0.0.1:10000, authentication NONE)
# with an embedded metastore (Derby) and local execution (MapReduce's LocalJobRunner inside
# the same JVM), on the local file system: warehouse, scratch, logs, Derby and every temp
# file under $TE_RUN/hive. Sourced by up.sh/down.sh after lib.sh.

HIVE_DIR=$TE_RUN/hive
HIVE_PORTS="10000"
# 2 GiB: map joins build their hash tables inside this JVM (no child JVM without a Hadoop
# install), and a join followed by a group-by fails once the whole heap is 55 % used
# (hive.mapjoin.followby.gby.localtask.max.memory.usage): with 1 GiB, a 200 000-row ORC
# books table did. RSS after start is about 400 MiB.
HIVE_HEAP=${GOBENCH_HIVE_HEAP:-2g}
# HiveServer2 (hive-service) is on Maven Central for 4.0.1, 4.0.0 and 3.1.3 only (4.1+: not served).
TE_HIVE_VERSIONS=${GOBENCH_HIVE_VERSIONS:-"4.0.1 4.0.0"}

# JVM flags for Hive 4.0 on Java 17: Hadoop's list plus what Hive's Kryo plan
# serialisation, Derby/DataNucleus and the ORC/Arrow readers reflect into.
TE_HIVE_JFLAGS=(
	"${TE_HADOOP_JFLAGS[@]}"
	--add-opens=java.base/java.lang.invoke=ALL-UNNAMED --add-opens=java.base/java.util.regex=ALL-UNNAMED
	--add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
	--add-opens=java.base/java.nio.charset=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED
	--add-opens=java.sql/java.sql=ALL-UNNAMED --add-opens=java.base/java.security=ALL-UNNAMED
	--add-opens=java.base/javax.security.auth=ALL-UNNAMED
	-Dio.netty.tryReflectionSetAccessible=true
)

hive_ready() {
	te_port_open 10000 && grep -q 'Started ThriftBinaryCLIService\|Starting ThriftBinaryCLIService' "$HIVE_DIR/server.out"
}

# hive_conf DIR: hive-site.xml, core-site.xml, mapred-site.xml and the log4j2 files.
# Keep mapreduce.local.map.tasks.maximum at 1 (Hadoop's default): with 2, two map tasks of
# one job run in the same JVM at once and Hive's reduce-side joins read corrupt input
# (EOFException in the reducer, or silently wrong sums: caught by gobench hive -verify).
hive_conf() {
	local c=$1 d=$HIVE_DIR
	mkdir -p "$c"
	te_xml_props "$c/core-site.xml" \
		fs.defaultFS=file:/// \
		"hadoop.tmp.dir=$d/tmp/hadoop"
	te_xml_props "$c/mapred-site.xml" \
		mapreduce.framework.name=local \
		"mapreduce.cluster.local.dir=$d/tmp/mapred/local" \
		"mapreduce.jobtracker.staging.root.dir=$d/tmp/mapred/staging" \
		mapreduce.task.io.sort.mb=32
	te_xml_props "$c/hive-site.xml" \
		hive.server2.thrift.bind.host=127.0.0.1 \
		hive.server2.thrift.port=10000 \
		hive.server2.transport.mode=binary \
		hive.server2.authentication=NONE \
		hive.server2.enable.doAs=false \
		hive.server2.webui.port=0 \
		hive.server2.tez.initialize.default.sessions=false \
		hive.server2.logging.operation.enabled=true \
		"hive.server2.logging.operation.log.location=$d/tmp/operation_logs" \
		hive.metastore.uris= \
		"javax.jdo.option.ConnectionURL=jdbc:derby:;databaseName=$d/metastore_db;create=true" \
		javax.jdo.option.ConnectionDriverName=org.apache.derby.jdbc.EmbeddedDriver \
		datanucleus.schema.autoCreateAll=true \
		hive.metastore.schema.verification=false \
		"hive.metastore.warehouse.dir=file://$d/warehouse" \
		"hive.metastore.warehouse.external.dir=file://$d/warehouse-external" \
		"hive.exec.scratchdir=$d/tmp/scratch" \
		"hive.exec.local.scratchdir=$d/tmp/localscratch" \
		"hive.downloaded.resources.dir=$d/tmp/resources" \
		"hive.querylog.location=$d/tmp/querylog" \
		"hive.query.results.cache.directory=$d/tmp/resultscache" \
		hive.execution.engine=mr \
		hive.exec.submitviachild=false \
		hive.exec.submit.local.task.via.child=false \
		hive.exec.mode.local.auto=false \
		hive.security.authorization.enabled=false \
		hive.support.concurrency=false \
		hive.txn.manager=org.apache.hadoop.hive.ql.lockmgr.DummyTxnManager \
		hive.scheduled.queries.executor.enabled=false \
		hive.metastore.event.db.notification.api.auth=false \
		hive.server2.materializedviews.registry.impl=DUMMY \
		hive.stats.autogather=true \
		hive.fetch.task.conversion=more
	te_log4j2 "$c/hive-log4j2.properties" info
	te_log4j2 "$c/log4j2.properties" info
}

hive_up() {
	local d=$HIVE_DIR p t0 cp
	if te_pid_alive "$d/pid" hive; then
		if hive_ready; then
			te_log "hive: already up (pid $(cat "$d/pid")) on 127.0.0.1:10000"
			return 0
		fi
		te_log "hive: pid $(cat "$d/pid") is starting; waiting for it"
		te_wait "${GOBENCH_UP_TIMEOUT:-240}" hive "$d/pid" hive "$d/server.out" hive_ready || return 1
		te_log "hive: ready on 127.0.0.1:10000"
		return 0
	fi
	for p in $HIVE_PORTS; do
		if te_port_open "$p"; then
			te_log "hive: port 127.0.0.1:$p is already in use by another process ($(te_port_owner "$p")) that this testenv (GOBENCH_RUN=$TE_RUN) did not start; stop it first"
			return 1
		fi
	done
	te_check_java
	te_classpath hive-server hive.version "$TE_HIVE_VERSIONS"
	rm -rf "$d"
	mkdir -p "$d/tmp" "$d/logs" "$d/warehouse" "$d/data"
	hive_conf "$d/conf"
	cp="$d/conf:$TE_CP"
	t0=$SECONDS
	# cd: Derby and Hive write a few files into the working directory (derby.log).
	(cd "$d" && te_start hive "$d/server.out" "$d/pid" "$TE_JAVA" -Dgobench.testenv=hive \
		"${TE_HIVE_JFLAGS[@]}" "-Xms256m" "-Xmx$HIVE_HEAP" -XX:+UseSerialGC \
		-Djava.io.tmpdir="$d/tmp" -Duser.dir="$d" -Dderby.stream.error.file="$d/logs/derby.log" \
		-Dhive.log.dir="$d/logs" -Dhadoop.log.dir="$d/logs" \
		-Dlog4j2.configurationFile="$d/conf/hive-log4j2.properties" \
		-cp "$cp" org.apache.hive.service.server.HiveServer2)
	te_wait "${GOBENCH_UP_TIMEOUT:-240}" hive "$d/pid" hive "$d/server.out" hive_ready || { te_stop "$d/pid" hive; return 1; }
	te_log "hive $TE_VERSION: ready on 127.0.0.1:10000 in $((SECONDS - t0)) s, RSS $(te_rss_mib "$d/pid") MiB"
}

hive_down() {
	if te_stop "$HIVE_DIR/pid" hive; then
		te_log "hive: stopped"
	else
		te_log "hive: not running (nothing to stop)"
	fi
	rm -rf "$HIVE_DIR"
}
