# shellcheck shell=bash
# testenv/srv/cluster-kafka.sh: the cluster mode's Kafka: three KRaft nodes (kafka1..3,
# each broker + controller in one JVM, node.id 1..3), brokers 127.0.0.1:19091..19093,
# controllers 19191..19193 (static quorum), default replication factor 3,
# min.insync.replicas 2. Sourced after lib.sh and cluster-common.sh.

CL_KAFKA_BROKERS=127.0.0.1:19091,127.0.0.1:19092,127.0.0.1:19093
# Same id format as the single node's, a different id: the two never mix.
CL_KAFKA_CLUSTER_ID=R2JDbHVzdGVyVGVzdGVudg
# A SIGKILLed broker is fenced (its partitions get new leaders) after this long without
# a heartbeat (Kafka's default is 9 s; the shared 2-core machine stalls for longer).
CL_KAFKA_SESSION_MS=${GOBENCH_CLUSTER_KAFKA_SESSION_MS:-15000}

# cl_kafka_props NODE: server.properties of a node.
cl_kafka_props() {
	local n=$1 i=${1#kafka} d=$CL_DIR/$1
	cat >"$d/conf/server.properties" <<EOF
process.roles=broker,controller
node.id=$i
controller.quorum.voters=1@127.0.0.1:19191,2@127.0.0.1:19192,3@127.0.0.1:19193
listeners=PLAINTEXT://127.0.0.1:1909$i,CONTROLLER://127.0.0.1:1919$i
advertised.listeners=PLAINTEXT://127.0.0.1:1909$i
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$d/data
num.partitions=1
default.replication.factor=3
min.insync.replicas=2
offsets.topic.replication.factor=3
transaction.state.log.replication.factor=3
transaction.state.log.min.isr=2
share.coordinator.state.topic.replication.factor=3
share.coordinator.state.topic.min.isr=2
unclean.leader.election.enable=false
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
num.network.threads=2
num.io.threads=4
# 16 MiB instead of 128 MiB: the compaction buffer (only __consumer_offsets) lives on the heap.
log.cleaner.dedupe.buffer.size=16777216
broker.session.timeout.ms=$CL_KAFKA_SESSION_MS
# Raft: a leader is given up after fetch.timeout without fetches (default 2 s, too short
# for this machine's stalls).
controller.quorum.fetch.timeout.ms=6000
controller.quorum.election.timeout.ms=2000
EOF
}

# cl_kafka_tool ARGS...: run the Java helper (java/ClusterKafka.java) once.
cl_kafka_tool() {
	te_check_java
	te_classpath kafka kafka.version "$TE_KAFKA_VERSIONS"
	te_javac cluster-kafka "$TE_CP" "$TE_DIR/java/AdminTool.java" "$TE_DIR/java/ClusterKafka.java"
	local conf=$TE_CACHE/conf/cluster-kafka-client
	mkdir -p "$conf"
	te_log4j2 "$conf/log4j2.properties" error
	"$TE_JAVA" "${TE_TMP_JFLAGS[@]}" -Xmx128m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true \
		"-Djava.io.tmpdir=$(cl_tool_tmp)" -Dlog4j2.configurationFile="$conf/log4j2.properties" \
		-cp "$TE_CLASSES:$TE_CP" ClusterKafka "$CL_KAFKA_BROKERS" "$@"
}

# cl_kafka_cluster_ready: 3 brokers in the metadata and a replication-3 topic created
# (all partitions with a leader and 3 in-sync replicas) and deleted, within CL_TIMEOUT.
cl_kafka_cluster_ready() {
	cl_kafka_tool wait-ready 3 "$CL_TIMEOUT" >&2 || {
		te_log "cluster kafka: not ready (3 brokers, a replication-3 topic) after ${CL_TIMEOUT}s"
		cl_tail kafka1
		return 1
	}
}

cl_kafka_up() {
	local t0=$SECONDS n r d storage jar pids=() p
	cl_resume kafka
	r=$?
	[ $r = 0 ] && return 0
	[ $r = 3 ] && return 1
	cl_free_ports $(cl_nodes kafka) || return 1
	CL_FRESH=1
	te_check_java
	te_classpath kafka kafka.version "$TE_KAFKA_VERSIONS"
	storage=kafka.tools.StorageTool
	jar=$(tr ':' '\n' <<<"$TE_CP" | grep '/kafka_2.13-[^/]*\.jar$' | head -n 1)
	if [ -n "$jar" ] && ! unzip -qq -l "$jar" kafka/tools/StorageTool.class >/dev/null 2>&1; then
		storage=org.apache.kafka.tools.StorageTool
	fi
	for n in $(cl_nodes kafka); do
		d=$CL_DIR/$n
		rm -rf "$d"
		mkdir -p "$d/conf" "$d/tmp" "$d/data"
		cl_kafka_props "$n"
		te_log4j2 "$d/conf/log4j2.properties" info
		# The three formats run at once (each a short JVM).
		"$TE_JAVA" "${TE_TMP_JFLAGS[@]}" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Djava.net.preferIPv4Stack=true \
			"-Djava.io.tmpdir=$d/tmp" -Dlog4j2.configurationFile="$d/conf/log4j2.properties" -cp "$TE_CP" \
			"$storage" format -t "$CL_KAFKA_CLUSTER_ID" -c "$d/conf/server.properties" >"$d/format.out" 2>&1 &
		pids+=($!)
		cl_define "$n" "$TE_JAVA" "-Dgobench.testenv=cluster-$n" "${TE_TMP_JFLAGS[@]}" \
			-Xms64m "-Xmx$CL_KAFKA_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
			-XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 \
			-Djava.awt.headless=true -Djava.net.preferIPv4Stack=true "-Djava.io.tmpdir=$d/tmp" \
			-Dlog4j2.configurationFile="$d/conf/log4j2.properties" -Dkafka.logs.dir="$d" \
			-cp "$TE_CP" kafka.Kafka "$d/conf/server.properties"
	done
	r=0
	for p in "${pids[@]}"; do wait "$p" || r=1; done
	if [ $r != 0 ]; then
		for n in $(cl_nodes kafka); do
			grep -q 'Formatting' "$CL_DIR/$n/format.out" && continue
			te_log "cluster kafka: storage format of $n failed:"
			tail -n 30 "$CL_DIR/$n/format.out" >&2
		done
		return 1
	fi
	# All three at once: a node's broker starts only once a controller quorum (2 of 3) is up.
	for n in $(cl_nodes kafka); do cl_spawn "$n"; done
	cl_wait_nodes "$CL_TIMEOUT" $(cl_nodes kafka) || return 1
	cl_kafka_cluster_ready || return 1
	te_log "cluster kafka $TE_VERSION: brokers $CL_KAFKA_BROKERS, in $((SECONDS - t0)) s (format included), RSS $(cl_rss_total $(cl_nodes kafka)) MiB"
}
