# shellcheck shell=bash
# testenv/srv/kafka.sh: Kafka 4.x, one KRaft node (broker + controller) on 127.0.0.1:9092
# (controller 127.0.0.1:9093; GOBENCH_KAFKA_PORT and GOBENCH_KAFKA_CONTROLLER_PORT move
# them, e.g. for a private broker beside the shared one). Sourced by up.sh/down.sh after lib.sh.
#
# Restart with data kept (the fault tests: a broker SIGKILLed and started again):
# GOBENCH_KAFKA_KEEP_DATA=1 testenv/up.sh kafka starts a broker that is not running on the
# log directory it left, without re-formatting storage; without a previous log directory
# it formats as usual.

KAFKA_DIR=$TE_RUN/kafka
KAFKA_PORT=${GOBENCH_KAFKA_PORT:-9092}
KAFKA_CONTROLLER_PORT=${GOBENCH_KAFKA_CONTROLLER_PORT:-9093}
KAFKA_PORTS="$KAFKA_PORT $KAFKA_CONTROLLER_PORT"
KAFKA_HEAP=${GOBENCH_KAFKA_HEAP:-1g}
# Fixed cluster id (22-char base64 UUID), as in franz-go's CI.
KAFKA_CLUSTER_ID=MkU3OEVBNTcwNTJENDM1Tk

kafka_ready() {
	grep -q 'Kafka Server started' "$KAFKA_DIR/server.out" && te_port_open "$KAFKA_PORT"
}

kafka_up() {
	local d=$KAFKA_DIR p t0 storage jar
	if te_pid_alive "$d/pid" kafka; then
		if kafka_ready; then
			te_log "kafka: already up (pid $(cat "$d/pid")) on 127.0.0.1:$KAFKA_PORT"
			return 0
		fi
		te_log "kafka: pid $(cat "$d/pid") is starting; waiting for it"
		te_wait "${GOBENCH_UP_TIMEOUT:-120}" kafka "$d/pid" kafka "$d/server.out" kafka_ready || return 1
		te_log "kafka: ready on 127.0.0.1:$KAFKA_PORT"
		return 0
	fi
	for p in $KAFKA_PORTS; do
		if te_port_open "$p"; then
			te_log "kafka: port 127.0.0.1:$p is already in use by another process ($(te_port_owner "$p")) that this testenv (GOBENCH_RUN=$TE_RUN) did not start; stop it first"
			return 1
		fi
	done
	te_check_java
	te_classpath kafka kafka.version "$TE_KAFKA_VERSIONS"
	local cp=$TE_CP
	if [ -n "${GOBENCH_KAFKA_KEEP_DATA:-}" ] && [ -f "$d/logs/meta.properties" ] && [ -f "$d/server.properties" ]; then
		t0=$SECONDS
		mv -f "$d/server.out" "$d/server.out.prev" 2>/dev/null
		te_log "kafka: restarting on the data in $d/logs (GOBENCH_KAFKA_KEEP_DATA)"
		kafka_start "$cp" || return 1
		te_log "kafka $TE_VERSION: ready on 127.0.0.1:$KAFKA_PORT in $((SECONDS - t0)) s (data kept), RSS $(te_rss_mib "$d/pid") MiB"
		return 0
	fi
	rm -rf "$d"
	mkdir -p "$d/logs" "$d/tmp"
	cat >"$d/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
$(kafka_single_node_props "$d/logs" true)
EOF
	te_log4j2 "$d/log4j2.properties" info
	# StorageTool lives in core (kafka.tools) up to at least 4.x; probe, fall back to the tools module.
	storage=kafka.tools.StorageTool
	jar=$(tr ':' '\n' <<<"$cp" | grep '/kafka_2.13-[^/]*\.jar$' | head -n 1)
	if [ -n "$jar" ] && ! unzip -qq -l "$jar" kafka/tools/StorageTool.class >/dev/null 2>&1; then
		storage=org.apache.kafka.tools.StorageTool
	fi
	t0=$SECONDS
	if ! "$TE_JAVA" "${TE_TMP_JFLAGS[@]}" -Djava.io.tmpdir="$d/tmp" -Xmx256m -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true \
		-Dlog4j2.configurationFile="$d/log4j2.properties" -cp "$cp" \
		"$storage" format -t "$KAFKA_CLUSTER_ID" -c "$d/server.properties" >"$d/format.out" 2>&1; then
		te_log "kafka: storage format failed:"
		tail -n 30 "$d/format.out" >&2
		return 1
	fi
	kafka_start "$cp" || return 1
	te_log "kafka $TE_VERSION: ready on 127.0.0.1:$KAFKA_PORT in $((SECONDS - t0)) s (format included), RSS $(te_rss_mib "$d/pid") MiB"
}

# kafka_start CLASSPATH: start the broker on $KAFKA_DIR and wait until it is ready.
kafka_start() {
	local d=$KAFKA_DIR cp=$1
	# 3>&- 4>&-: a broker started by `flock LOCK testenv/up.sh` must not inherit the lock.
	te_start kafka "$d/server.out" "$d/pid" "$TE_JAVA" -Dgobench.testenv=kafka \
		"${TE_TMP_JFLAGS[@]}" -Djava.io.tmpdir="$d/tmp" "-Xms$KAFKA_HEAP" "-Xmx$KAFKA_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
		-XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 \
		-Djava.awt.headless=true -Djava.net.preferIPv4Stack=true \
		-Dlog4j2.configurationFile="$d/log4j2.properties" -Dkafka.logs.dir="$d" \
		-cp "$cp" kafka.Kafka "$d/server.properties" 3>&- 4>&-
	te_wait "${GOBENCH_UP_TIMEOUT:-120}" kafka "$d/pid" kafka "$d/server.out" kafka_ready || { te_stop "$d/pid" kafka; return 1; }
}

kafka_down() {
	if te_stop "$KAFKA_DIR/pid" kafka; then
		te_log "kafka: stopped"
	else
		te_log "kafka: not running (nothing to stop)"
	fi
	rm -rf "$KAFKA_DIR"
}

# kafka_single_node_props LOGDIR AUTOCREATE: the server.properties lines of a one-broker
# testenv Kafka, plain (kafka.sh) or secured (secure-kafka.sh): replication 1, no group
# start delay, topic auto-creation AUTOCREATE (true/false), and the session and
# registration timeouts the fault tests need.
kafka_single_node_props() {
	cat <<EOF
log.dirs=$1
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=$2
num.network.threads=3
num.io.threads=8
# The controller fences the broker after broker.session.timeout.ms (default 9 s) without
# a heartbeat; CPU stalls of that length were seen on the shared 2-core machine.
broker.session.timeout.ms=60000
# A broker SIGKILLed and started again (the fault tests) is refused
# (DUPLICATE_BROKER_REGISTRATION) until its old session expires, up to
# broker.session.timeout.ms; its own registration wait (default 60 s, the same)
# must outlast that, else it gives up just before and exits.
initial.broker.registration.timeout.ms=180000
EOF
}
