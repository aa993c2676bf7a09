# shellcheck shell=bash
# testenv/lib.sh: helpers shared by up.sh, down.sh and the Java tool wrappers.
# Sourced, never run. Everything a server needs lives in two places:
#   $TE_CACHE (GOBENCH_CACHE, default ~/.cache/gobench-testenv): Maven repo, resolved
#             classpaths, compiled helper classes. Kept between runs.
#   $TE_RUN   (GOBENCH_RUN, default ${TMPDIR:-/tmp}/gobench-testenv): config, data,
#             logs and pid files of running servers. down.sh removes it per server.

TE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TE_CACHE=${GOBENCH_CACHE:-$HOME/.cache/gobench-testenv}
TE_RUN=${GOBENCH_RUN:-${TMPDIR:-/tmp}/gobench-testenv}
TE_M2=$TE_CACHE/m2
TE_MAVEN_URL=${GOBENCH_MAVEN_URL:-https://repo.maven.apache.org/maven2}
TE_JAVA=${JAVA:-java}
TE_JAVAC=${JAVAC:-javac}
[ -n "${JAVA:-}" ] && [ -z "${JAVAC:-}" ] && [ -x "${JAVA%/java}/javac" ] && TE_JAVAC=${JAVA%/java}/javac

# Pinned versions, first one preferred, the rest are fallbacks tried in order.
# Override with e.g. GOBENCH_KAFKA_VERSIONS="4.3.1".
TE_KAFKA_VERSIONS=${GOBENCH_KAFKA_VERSIONS:-"4.4.0 4.3.1"}
TE_HADOOP_VERSIONS=${GOBENCH_HADOOP_VERSIONS:-"3.5.0 3.4.2"}
TE_HBASE_VERSIONS=${GOBENCH_HBASE_VERSIONS:-"2.6.4-hadoop3 2.6.1-hadoop3"}
# hbase-shaded-client (YCSB's client side) is served for fewer versions than hbase-server.
TE_HBASE_CLIENT_VERSIONS=${GOBENCH_HBASE_CLIENT_VERSIONS:-"2.6.4-hadoop3 2.6.3-hadoop3"}

te_log() { printf '[testenv] %s\n' "$*" >&2; }
te_die() { printf '[testenv] ERROR: %s\n' "$*" >&2; exit 1; }

# te_java_major BIN: the Java feature version of BIN (e.g. 17), empty if unknown.
te_java_major() {
	"$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'
}

# te_check_java: pick a Java 17-23 (Hadoop 3.5 needs 17 on the server side; Java 24+
# removed what Hadoop's user code relies on). JAVA=/path/to/java wins; else `java` on
# PATH if it is 17-23; else the first /usr/lib/jvm/*-{17,21}*/bin/java. Sets TE_JAVA and
# TE_JAVAC (the javac beside it).
te_check_java() {
	[ -n "${TE_JAVA_CHECKED:-}" ] && return 0
	local v c
	if [ -z "${JAVA:-}" ]; then
		v=$(te_java_major "$TE_JAVA" 2>/dev/null)
		if [ -z "$v" ] || [ "$v" -lt 17 ] || [ "$v" -ge 24 ]; then
			for c in /usr/lib/jvm/*-17-*/bin/java /usr/lib/jvm/*17*/bin/java /usr/lib/jvm/*-21-*/bin/java; do
				if [ -x "$c" ]; then
					te_log "java on PATH is ${v:-missing}; using $c"
					TE_JAVA=$c
					[ -x "${c%/java}/javac" ] && TE_JAVAC=${c%/java}/javac
					break
				fi
			done
		fi
	fi
	command -v "$TE_JAVA" >/dev/null 2>&1 || te_die "java not found (need OpenJDK 17; set JAVA=/path/to/java)"
	v=$(te_java_major "$TE_JAVA")
	[ -n "$v" ] || te_die "cannot read the Java version of $TE_JAVA"
	[ "$v" -ge 17 ] || te_die "Java $v found ($TE_JAVA), need 17 (set JAVA=/path/to/java)"
	if [ "$v" -ge 24 ]; then
		te_log "warning: Java $v ($TE_JAVA): Hadoop/HBase need Java 17-21 (SecurityManager removed in 24); set JAVA="
	fi
	TE_JAVA_CHECKED=1
}

# te_settings writes a Maven settings.xml that mirrors every repository to Maven Central,
# so third-party POMs cannot send Maven to other hosts.
te_settings() {
	mkdir -p "$TE_CACHE"
	local s=$TE_CACHE/settings.xml
	if [ ! -f "$s" ] || ! grep -q "<url>$TE_MAVEN_URL</url>" "$s"; then
		cat >"$s" <<EOF
<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0">
  <localRepository>$TE_M2</localRepository>
  <mirrors>
    <mirror><id>central-only</id><mirrorOf>*</mirrorOf><url>$TE_MAVEN_URL</url></mirror>
  </mirrors>
</settings>
EOF
	fi
	echo "$s"
}

# te_cp_ok FILE: every entry of the classpath file exists.
te_cp_ok() {
	[ -s "$1" ] || return 1
	local IFS=:
	local e
	for e in $(cat "$1"); do
		[ -e "$e" ] || return 1
	done
	return 0
}

# te_classpath POM_NAME VERSION_PROPERTY "V1 V2 ...": resolves the runtime classpath of
# testenv/poms/POM_NAME/pom.xml for the first version that Maven can resolve, and sets
# TE_CP (the classpath) and TE_VERSION (the version chosen). Results are cached in
# $TE_CACHE/cp/POM_NAME-VERSION-POMHASH.txt; later runs use them without starting Maven,
# and an edited pom gets a fresh resolution.
te_classpath() {
	local name=$1 prop=$2 versions=$3 v out log settings t0 h
	h=$(sha1sum "$TE_DIR/poms/$name/pom.xml" | cut -c1-8)
	mkdir -p "$TE_CACHE/cp"
	for v in $versions; do
		out=$TE_CACHE/cp/$name-$v-$h.txt
		if te_cp_ok "$out"; then
			TE_VERSION=$v
			TE_CP=$(cat "$out")
			return 0
		fi
	done
	command -v mvn >/dev/null 2>&1 || te_die "mvn not found (need Maven 3.8+ to fetch jars)"
	settings=$(te_settings)
	for v in $versions; do
		out=$TE_CACHE/cp/$name-$v-$h.txt
		log=$TE_CACHE/cp/$name-$v-$h.mvn.log
		te_log "resolving $name ($prop=$v) from $TE_MAVEN_URL into $TE_M2 (first run only; takes minutes)"
		t0=$SECONDS
		# Bounded: 20 s to connect, 2 min per request, 20 min in all (never hangs).
		if timeout 1200 mvn -B -q -Dstyle.color=never -s "$settings" -f "$TE_DIR/poms/$name/pom.xml" "-D$prop=$v" \
			-Daether.connector.connectTimeout=20000 -Daether.connector.requestTimeout=120000 \
			dependency:build-classpath -Dmdep.outputFile="$out.tmp.$$" -Dmdep.includeScope=runtime \
			>"$log" 2>&1 && te_cp_ok "$out.tmp.$$"; then
			mv "$out.tmp.$$" "$out"
			te_log "resolved $name $v in $((SECONDS - t0)) s"
			TE_VERSION=$v
			TE_CP=$(cat "$out")
			return 0
		fi
		rm -f "$out.tmp.$$"
		te_log "could not resolve $name $v (log: $log):"
		tail -n 15 "$log" >&2
	done
	te_die "no version of $name resolved (tried: $versions)"
}

# te_javac NAME CLASSPATH SOURCE...: compile the testenv Java helpers with javac into
# $TE_CACHE/classes/NAME-HASH (HASH of the sources and the classpath, so a changed
# source or server version recompiles) and set TE_CLASSES to that directory.
te_javac() {
	local name=$1 cp=$2 h out
	shift 2
	h=$( (cat "$@"; echo "$cp") | sha1sum | cut -c1-10)
	out=$TE_CACHE/classes/$name-$h
	if [ ! -f "$out/.ok" ]; then
		command -v "$TE_JAVAC" >/dev/null 2>&1 || te_die "javac not found (need a JDK 17, not only a JRE)"
		rm -rf "$out"
		mkdir -p "$out"
		"$TE_JAVAC" -nowarn -encoding UTF-8 -d "$out" -cp "$cp" "$@" >"$out/javac.log" 2>&1 || {
			cat "$out/javac.log" >&2
			te_die "javac $name failed"
		}
		touch "$out/.ok"
	fi
	TE_CLASSES=$out
}

# te_lock: serialise up.sh/down.sh runs on this machine (bounded wait, never hangs).
te_lock() {
	exec 9>"$TE_RUN/.updown.lock"
	if ! flock -n 9; then
		te_log "another testenv up.sh/down.sh is running; waiting up to 600 s for it"
		flock -w 600 9 || te_die "still locked after 600 s: $TE_RUN/.updown.lock (held by another up.sh/down.sh)"
	fi
}

# te_port_open PORT: something accepts TCP connections on 127.0.0.1:PORT.
te_port_open() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# te_port_owner PORT: best-effort description of the process listening on PORT.
te_port_owner() {
	ss -Hltnp "sport = :$1" 2>/dev/null | sed -n 's/.*users:((\(.*\)))/\1/p' | head -n 1
}

# te_pid_alive PIDFILE TAG: the pid in PIDFILE runs and is a JVM started by testenv with
# -Dgobench.testenv=TAG (guards against pid reuse).
te_pid_alive() {
	local pid
	[ -f "$1" ] || return 1
	pid=$(cat "$1")
	[ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
	# No pipe into grep -q here: under pipefail an early grep exit can fail the pipeline.
	local c
	c=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
	[[ $c == *"-Dgobench.testenv=$2 "* ]]
}

# te_spawn LOGFILE CMD...: run CMD in the background, detached in its own
# session, appending its output to LOGFILE; $! is its pid. It inherits no
# descriptor but 0-2: not te_lock's, nor a caller's (`flock FILE make test`
# holds FILE on fd 3), since a JVM keeping one would hold that lock for as
# long as it runs.
te_spawn() {
	local log=$1
	shift
	(
		for fd in /proc/self/fd/*; do
			fd=${fd##*/}
			if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
		done
		exec setsid nohup "$@" >>"$log" 2>&1 </dev/null
	) &
}

# te_start TAG LOGFILE PIDFILE CMD...: start CMD detached (own session), output to LOGFILE.
te_start() {
	local tag=$1 log=$2 pidf=$3
	shift 3
	local pid i
	: >"$log"
	te_spawn "$log" "$@"
	pid=$!
	echo "$pid" >"$pidf"
	# Until the background shell has exec'd java, /proc/PID/cmdline lacks the
	# -Dgobench.testenv marker: wait for it (5 s at most) so that te_pid_alive is true.
	for i in $(seq 1 50); do
		[[ $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) == *-Dgobench.testenv=* ]] && break
		[ -d "/proc/$pid" ] || break
		sleep 0.1
	done
	te_log "started $tag (pid $pid), log $log"
}

# te_wait DEADLINE_SECONDS DESCRIPTION PIDFILE TAG LOG CHECK...: poll CHECK (a command)
# every second until it succeeds. Fails with the log tail when the process dies or the
# deadline passes.
te_wait() {
	local secs=$1 what=$2 pidf=$3 tag=$4 log=$5
	shift 5
	local end=$((SECONDS + secs))
	while ! "$@" >/dev/null 2>&1; do
		if ! te_pid_alive "$pidf" "$tag"; then
			te_log "$what: the process exited; last 40 lines of $log:"
			tail -n 40 "$log" | cut -c1-300 >&2
			return 1
		fi
		if [ $SECONDS -ge $end ]; then
			te_log "$what: not ready after ${secs}s; last 40 lines of $log:"
			tail -n 40 "$log" | cut -c1-300 >&2
			return 1
		fi
		sleep 1
	done
}

# te_stop PIDFILE TAG: TERM the process, wait up to 40 s, then KILL. Only that pid.
te_stop() {
	local pidf=$1 tag=$2 pid i
	if ! te_pid_alive "$pidf" "$tag"; then
		rm -f "$pidf"
		return 1
	fi
	pid=$(cat "$pidf")
	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 1 40); do
		te_pid_alive "$pidf" "$tag" || break
		sleep 1
	done
	if te_pid_alive "$pidf" "$tag"; then
		te_log "$tag (pid $pid) still running after 40 s; sending KILL"
		kill -KILL "$pid" 2>/dev/null
		sleep 1
	fi
	rm -f "$pidf"
	return 0
}

# te_rss PIDFILE: resident set size of the process in MiB.
te_rss_mib() {
	local pid
	pid=$(cat "$1" 2>/dev/null) || return 0
	awk '/^VmRSS:/ {printf "%d", $2/1024}' "/proc/$pid/status" 2>/dev/null
}

# te_xml_props FILE NAME=VALUE...: write a Hadoop-style configuration file.
te_xml_props() {
	local f=$1 kv
	shift
	{
		echo '<?xml version="1.0"?>'
		echo '<configuration>'
		for kv in "$@"; do
			printf '  <property><name>%s</name><value>%s</value></property>\n' "${kv%%=*}" "${kv#*=}"
		done
		echo '</configuration>'
	} >"$f"
}

# Every server JVM also gets -Djava.io.tmpdir=<its run dir>/tmp (Jetty's work dirs,
# Hadoop's and HBase's scratch files go there, and down.sh removes them with the run dir,
# even after a kill -9), and no /tmp/hsperfdata_$USER/PID file: the JVM's performance
# counters stay in process memory (jcmd still reads them; jps/jstat do not list the JVM).
TE_TMP_JFLAGS=(-XX:+PerfDisableSharedMem)

# JVM flags from Hadoop 3.5's scripts for Java 17 (HADOOP-19310, MAPREDUCE-7456).
TE_HADOOP_JFLAGS=(
	-Djava.net.preferIPv4Stack=true -XX:+IgnoreUnrecognizedVMOptions
	--add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
	--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.math=ALL-UNNAMED
	--add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED
	--add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
	--add-opens=java.base/java.util.zip=ALL-UNNAMED --add-opens=java.base/sun.security.util=ALL-UNNAMED
	--add-opens=java.base/sun.security.x509=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
	--add-opens=java.base/sun.nio.ch=ALL-UNNAMED
	--add-exports=java.base/sun.net.dns=ALL-UNNAMED --add-exports=java.base/sun.net.util=ALL-UNNAMED
)

# JVM flags from bin/hbase for JDK 11+ plus HBASE-28252/28259/28247.
TE_HBASE_JFLAGS=(
	-Djava.net.preferIPv4Stack=true -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
	--add-modules jdk.unsupported
	--add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED
	--add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
	--add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED
	--add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
	--add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED
	--add-exports java.base/sun.net.dns=ALL-UNNAMED --add-exports java.base/sun.net.util=ALL-UNNAMED
)

# te_log4j2 FILE LEVEL: console-only log4j2 configuration.
te_log4j2() {
	cat >"$1" <<EOF
status=warn
appender.console.type=Console
appender.console.name=STDOUT
appender.console.layout.type=PatternLayout
appender.console.layout.pattern=[%d] %p %m (%c)%n
rootLogger.level=${2:-info}
rootLogger.appenderRef.stdout.ref=STDOUT
EOF
}

# te_log4j1 FILE LEVEL: console-only log4j 1.x (reload4j) configuration for Hadoop.
te_log4j1() {
	cat >"$1" <<EOF
log4j.rootLogger=${2:-INFO},console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
EOF
}

# te_wait_nodes P LABEL SECONDS NODE...: wait until every node of a multi-node mode (cluster:
# P=cl, secured: P=sec) is ready, through that mode's P_alive, P_node_ready and P_tail.
# Fails (with the log tail) when one exits or the deadline passes. LABEL prefixes the messages.
te_wait_nodes() {
	local p=$1 label=$2 secs=$3 end n left
	shift 3
	end=$((SECONDS + secs))
	left=("$@")
	while [ ${#left[@]} -gt 0 ]; do
		local rest=()
		for n in "${left[@]}"; do
			if ! "${p}_alive" "$n"; then
				te_log "$label$n: the process exited during start-up"
				"${p}_tail" "$n"
				return 1
			fi
			"${p}_node_ready" "$n" || rest+=("$n")
		done
		left=("${rest[@]}")
		[ ${#left[@]} -eq 0 ] && break
		if [ $SECONDS -ge $end ]; then
			te_log "${label}not ready after ${secs}s: ${left[*]}"
			for n in "${left[@]}"; do "${p}_tail" "$n"; done
			return 1
		fi
		sleep 0.5
	done
}

# te_kill_node P LABEL DIR NODE: SIGKILL the node (also when frozen), wait until it is gone
# (10 s) and remove DIR/NODE/pid; through P_alive and P_pid.
te_kill_node() {
	local p=$1 label=$2 dir=$3 n=$4 pid i
	"${p}_alive" "$n" || return 1
	pid=$("${p}_pid" "$n")
	kill -KILL "$pid" 2>/dev/null
	for i in $(seq 1 100); do
		"${p}_alive" "$n" || break
		sleep 0.1
	done
	"${p}_alive" "$n" && te_die "$label$n (pid $pid) still alive 10 s after SIGKILL"
	rm -f "$dir/$n/pid"
	return 0
}

# te_free_ports P LABEL WHAT NODE...: fail, naming the owner, if a port of these nodes
# (P_ports) is taken by a process that WHAT (say "this testenv cluster") did not start.
te_free_ports() {
	local p=$1 label=$2 what=$3 n port
	shift 3
	for n in "$@"; do
		for port in $("${p}_ports" "$n"); do
			if te_port_open "$port"; then
				te_log "$label$n: port 127.0.0.1:$port is already in use by another process ($(te_port_owner "$port")) that $what (GOBENCH_RUN=$TE_RUN) did not start; stop it first"
				return 1
			fi
		done
	done
}

# te_rss_total P DIR NODE...: summed RSS in MiB of the running nodes (P_alive, DIR/NODE/pid).
te_rss_total() {
	local p=$1 dir=$2 n t=0 r
	shift 2
	for n in "$@"; do
		"${p}_alive" "$n" || continue
		r=$(te_rss_mib "$dir/$n/pid")
		t=$((t + ${r:-0}))
	done
	echo "$t"
}

# te_status_line P DIR NODE STATE: one line: name, state, pid, RSS, address, log.
te_status_line() {
	local p=$1 dir=$2 n=$3 st=$4
	if [ "$st" = down ]; then
		printf '%-13s %-6s %-7s %9s  %-16s %s\n' "$n" down - - "127.0.0.1:$("${p}_port" "$n")" -
	else
		printf '%-13s %-6s %-7s %5s MiB  %-16s %s\n' "$n" "$st" "$("${p}_pid" "$n")" "$(te_rss_mib "$dir/$n/pid")" \
			"127.0.0.1:$("${p}_port" "$n")" "$dir/$n/out"
	fi
}
