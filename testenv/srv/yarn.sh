# shellcheck shell=bash
# testenv/srv/yarn.sh: YARN with the real daemons, one ResourceManager (REST 127.0.0.1:8088,
# client RPC 8032, scheduler 8030, resource tracker 8031, admin 8033) and two NodeManagers
# (RPC 8041/8051, localizer 8040/8050, web 8042/8052), beside the testenv HDFS
# (fs.defaultFS=hdfs://127.0.0.1:9000; start it with up.sh hdfs). The NodeManagers'
# yarn.application.classpath holds the resolved jars, DistributedShell's included (as a
# Hadoop distribution's share/hadoop/yarn/* does), so `gobench yarn` finds its application
# master there. Sourced by up.sh/down.sh after lib.sh. Only the suites that need it start it.

YARN_DIR=$TE_RUN/yarn
YARN_RM_PORTS="8030 8031 8032 8033 8088"
YARN_NM_PORTS="8040 8041 8042 8050 8051 8052"
YARN_RM_HEAP=${GOBENCH_YARN_RM_HEAP:-256m}
YARN_NM_HEAP=${GOBENCH_YARN_NM_HEAP:-192m}
# Memory and vcores each NodeManager offers to containers (MiB, count).
YARN_NM_MEMORY=${GOBENCH_YARN_NM_MEMORY:-4096}
YARN_NM_VCORES=${GOBENCH_YARN_NM_VCORES:-4}
# DistributedShell is on Maven Central for 3.4.2 and 3.3.5 (not 3.5.0): YARN runs 3.4.2
# beside HDFS 3.5.0 (the RPC protocols are compatible).
TE_YARN_VERSIONS=${GOBENCH_YARN_VERSIONS:-"3.4.2 3.3.5"}

# yarn_site FILE NAME=VALUE...: what every yarn-site.xml holds (the RM addresses, the
# scheduler limits, the application classpath), then the extra NAME=VALUE.
yarn_site() {
	local f=$1
	shift
	te_xml_props "$f" \
		yarn.resourcemanager.hostname=127.0.0.1 \
		yarn.resourcemanager.address=127.0.0.1:8032 \
		yarn.resourcemanager.scheduler.address=127.0.0.1:8030 \
		yarn.resourcemanager.resource-tracker.address=127.0.0.1:8031 \
		yarn.resourcemanager.admin.address=127.0.0.1:8033 \
		yarn.resourcemanager.webapp.address=127.0.0.1:8088 \
		yarn.resourcemanager.recovery.enabled=false \
		yarn.timeline-service.enabled=false \
		yarn.log-aggregation-enable=false \
		yarn.scheduler.minimum-allocation-mb=128 \
		"yarn.scheduler.maximum-allocation-mb=$YARN_NM_MEMORY" \
		"yarn.scheduler.maximum-allocation-vcores=$YARN_NM_VCORES" \
		"yarn.application.classpath=$YARN_DIR/conf-client:$TE_CP" \
		"$@"
}

# yarn_conf: the client conf (what containers see: RM scheduler address, HDFS), the RM's and
# one per NodeManager, all under $YARN_DIR.
yarn_conf() {
	local d=$YARN_DIR n
	mkdir -p "$d/conf-client" "$d/conf-rm"
	te_xml_props "$d/conf-client/core-site.xml" fs.defaultFS=hdfs://127.0.0.1:9000 "hadoop.tmp.dir=$d/tmp"
	yarn_site "$d/conf-client/yarn-site.xml"
	te_log4j1 "$d/conf-client/log4j.properties" INFO
	# The web UI and REST API of the RM: pseudo authentication, so `?user.name=U` names the
	# submitting user (without it the REST calls that change state are refused).
	te_xml_props "$d/conf-rm/core-site.xml" fs.defaultFS=hdfs://127.0.0.1:9000 "hadoop.tmp.dir=$d/tmp" \
		hadoop.http.filter.initializers=org.apache.hadoop.security.AuthenticationFilterInitializer \
		hadoop.http.authentication.type=simple \
		hadoop.http.authentication.simple.anonymous.allowed=true \
		"hadoop.http.authentication.signature.secret.file=$d/conf-rm/http-secret"
	head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$d/conf-rm/http-secret"
	yarn_site "$d/conf-rm/yarn-site.xml" \
		yarn.resourcemanager.scheduler.class=org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler \
		yarn.resourcemanager.nodemanagers.heartbeat-interval-ms=500
	te_xml_props "$d/conf-rm/capacity-scheduler.xml" \
		yarn.scheduler.capacity.root.queues=default,other \
		yarn.scheduler.capacity.root.default.capacity=80 \
		yarn.scheduler.capacity.root.other.capacity=20 \
		yarn.scheduler.capacity.root.default.maximum-capacity=100 \
		yarn.scheduler.capacity.root.other.maximum-capacity=100 \
		yarn.scheduler.capacity.maximum-am-resource-percent=0.5
	te_log4j1 "$d/conf-rm/log4j.properties" INFO
	for n in 1 2; do
		mkdir -p "$d/conf-nm$n" "$d/nm$n/local" "$d/nm$n/logs"
		cp "$d/conf-client/core-site.xml" "$d/conf-nm$n/core-site.xml"
		yarn_site "$d/conf-nm$n/yarn-site.xml" \
			yarn.nodemanager.hostname=127.0.0.1 \
			"yarn.nodemanager.address=127.0.0.1:$((8031 + 10 * n))" \
			"yarn.nodemanager.localizer.address=127.0.0.1:$((8030 + 10 * n))" \
			"yarn.nodemanager.webapp.address=127.0.0.1:$((8032 + 10 * n))" \
			"yarn.nodemanager.local-dirs=$d/nm$n/local" \
			"yarn.nodemanager.log-dirs=$d/nm$n/logs" \
			"yarn.nodemanager.resource.memory-mb=$YARN_NM_MEMORY" \
			"yarn.nodemanager.resource.cpu-vcores=$YARN_NM_VCORES" \
			yarn.nodemanager.pmem-check-enabled=false \
			yarn.nodemanager.vmem-check-enabled=false \
			yarn.nodemanager.recovery.enabled=false \
			yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage=99 \
			yarn.nodemanager.delete.debug-delay-sec=600 \
			yarn.resourcemanager.connect.retry-interval.ms=1000
		te_log4j1 "$d/conf-nm$n/log4j.properties" INFO
	done
}

yarn_rm_ready() {
	te_port_open 8088 && te_port_open 8030 && grep -q 'Transitioned to active state' "$YARN_DIR/rm.out"
}

# yarn_nm_ready N: NodeManager N registered with the ResourceManager.
yarn_nm_ready() {
	te_port_open $((8031 + 10 * $1)) && grep -q 'Registered with ResourceManager' "$YARN_DIR/nm$1.out"
}
yarn_nm1_ready() { yarn_nm_ready 1; }
yarn_nm2_ready() { yarn_nm_ready 2; }

yarn_all_alive() {
	te_pid_alive "$YARN_DIR/rm.pid" yarn-rm && te_pid_alive "$YARN_DIR/nm1.pid" yarn-nm1 && te_pid_alive "$YARN_DIR/nm2.pid" yarn-nm2
}

yarn_up() {
	local d=$YARN_DIR p t0 n
	local secs=${GOBENCH_UP_TIMEOUT:-180}
	if yarn_all_alive; then
		if yarn_rm_ready && yarn_nm_ready 1 && yarn_nm_ready 2; then
			te_log "yarn: already up (ResourceManager pid $(cat "$d/rm.pid"), NodeManagers $(cat "$d/nm1.pid") $(cat "$d/nm2.pid")) on http://127.0.0.1:8088"
			return 0
		fi
		te_log "yarn: starting in another process; waiting for it"
		te_wait "$secs" "yarn resourcemanager" "$d/rm.pid" yarn-rm "$d/rm.out" yarn_rm_ready || return 1
		te_wait "$secs" "yarn nodemanager 1" "$d/nm1.pid" yarn-nm1 "$d/nm1.out" yarn_nm1_ready || return 1
		te_wait "$secs" "yarn nodemanager 2" "$d/nm2.pid" yarn-nm2 "$d/nm2.out" yarn_nm2_ready || return 1
		te_log "yarn: ready on http://127.0.0.1:8088"
		return 0
	fi
	if te_pid_alive "$d/rm.pid" yarn-rm || te_pid_alive "$d/nm1.pid" yarn-nm1 || te_pid_alive "$d/nm2.pid" yarn-nm2; then
		te_log "yarn: only some of its daemons are running; restarting all"
		yarn_stop_pids
	fi
	for p in $YARN_RM_PORTS $YARN_NM_PORTS; do
		if te_port_open "$p"; then
			te_log "yarn: port 127.0.0.1:$p is already in use by another process ($(te_port_owner "$p")) that this testenv (GOBENCH_RUN=$TE_RUN) did not start; stop it first"
			return 1
		fi
	done
	te_port_open 9000 || te_log "yarn: note: HDFS (127.0.0.1:9000) is not up; applications need it (testenv/up.sh hdfs)"
	te_check_java
	te_classpath yarn hadoop.version "$TE_YARN_VERSIONS"
	rm -rf "$d"
	mkdir -p "$d/logs" "$d/tmp"
	yarn_conf
	# Containers run {{JAVA_HOME}}/bin/java (the application master): the NodeManagers pass
	# their JAVA_HOME on (yarn.nodemanager.env-whitelist).
	local jh
	jh=$(dirname "$(dirname "$(readlink -f "$(command -v "$TE_JAVA")")")")
	# Control-plane JVMs: Serial GC and C1 only (as the cluster mode's), temp files in the run
	# dir. The NodeManagers start with the ResourceManager, not after it: they retry their
	# registration every second (yarn.resourcemanager.connect.retry-interval.ms) until it
	# is up, so the three JVM starts overlap.
	local jflags=("${TE_HADOOP_JFLAGS[@]}" "${TE_TMP_JFLAGS[@]}" -Djava.io.tmpdir="$d/tmp" -XX:+UseSerialGC -XX:TieredStopAtLevel=1)
	t0=$SECONDS
	te_start "yarn resourcemanager" "$d/rm.out" "$d/rm.pid" env JAVA_HOME="$jh" "$TE_JAVA" -Dgobench.testenv=yarn-rm \
		"${jflags[@]}" "-Xms$YARN_RM_HEAP" "-Xmx$YARN_RM_HEAP" \
		-Dhadoop.log.dir="$d/logs" -Dyarn.log.dir="$d/logs" -Dhadoop.security.logger=INFO,NullAppender \
		-cp "$d/conf-rm:$TE_CP" org.apache.hadoop.yarn.server.resourcemanager.ResourceManager
	for n in 1 2; do
		te_start "yarn nodemanager $n" "$d/nm$n.out" "$d/nm$n.pid" env JAVA_HOME="$jh" "$TE_JAVA" -Dgobench.testenv=yarn-nm$n \
			"${jflags[@]}" "-Xms$YARN_NM_HEAP" "-Xmx$YARN_NM_HEAP" \
			-Dhadoop.log.dir="$d/nm$n/logs" -Dyarn.log.dir="$d/nm$n/logs" -Dhadoop.security.logger=INFO,NullAppender \
			-cp "$d/conf-nm$n:$TE_CP" org.apache.hadoop.yarn.server.nodemanager.NodeManager
	done
	te_wait "$secs" "yarn resourcemanager" "$d/rm.pid" yarn-rm "$d/rm.out" yarn_rm_ready || { yarn_stop_pids; return 1; }
	te_wait "$secs" "yarn nodemanager 1" "$d/nm1.pid" yarn-nm1 "$d/nm1.out" yarn_nm1_ready || { yarn_stop_pids; return 1; }
	te_wait "$secs" "yarn nodemanager 2" "$d/nm2.pid" yarn-nm2 "$d/nm2.out" yarn_nm2_ready || { yarn_stop_pids; return 1; }
	te_log "yarn $TE_VERSION: ready on http://127.0.0.1:8088 in $((SECONDS - t0)) s, RSS ResourceManager $(te_rss_mib "$d/rm.pid") MiB + NodeManagers $(te_rss_mib "$d/nm1.pid") + $(te_rss_mib "$d/nm2.pid") MiB"
}

yarn_stop_pids() {
	te_stop "$YARN_DIR/nm1.pid" yarn-nm1
	te_stop "$YARN_DIR/nm2.pid" yarn-nm2
	te_stop "$YARN_DIR/rm.pid" yarn-rm
	return 0
}

yarn_down() {
	local any=0
	te_stop "$YARN_DIR/nm1.pid" yarn-nm1 && any=1
	te_stop "$YARN_DIR/nm2.pid" yarn-nm2 && any=1
	te_stop "$YARN_DIR/rm.pid" yarn-rm && any=1
	if [ $any = 1 ]; then
		te_log "yarn: stopped"
	else
		te_log "yarn: not running (nothing to stop)"
	fi
	rm -rf "$YARN_DIR"
}
