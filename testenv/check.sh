#!/usr/bin/env bash
# testenv/check.sh [unit|all]: check, before anything runs, that the tools the test command
# needs are installed, and name everything that is missing at once (exit 1).
#   unit  `make test-unit`: go, and a C compiler for `go test -race` (it needs cgo,
#         CGO_ENABLED=1; `go env CC` names the compiler, gcc by default)
#   all   `make test` (default): also Java 17 with javac (the servers and their Java
#         helpers), Maven 3.8+ unless testenv's jar cache already holds every classpath,
#         and flock, setsid, timeout, unzip, sha1sum
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mode=${1:-all}
case $mode in
unit | all) ;;
*) te_die "usage: testenv/check.sh [unit|all] (got \"$mode\")" ;;
esac

missing=()
have=()
GO=${GO:-go}

if command -v "$GO" >/dev/null 2>&1; then
	have+=("$("$GO" env GOVERSION 2>/dev/null || echo go)")
	cc=$("$GO" env CC 2>/dev/null)
	cc=${cc:-gcc}
	if command -v "${cc%% *}" >/dev/null 2>&1; then
		have+=("C compiler ${cc%% *}")
	else
		missing+=("a C compiler: go test -race needs cgo (CGO_ENABLED=1) and \`go env CC\` is \"$cc\", which is not installed (Debian/Ubuntu: apt-get install gcc; or set CC)")
	fi
else
	missing+=("go: \"$GO\" not found (install Go $(sed -n 's/^go //p' "$TE_DIR/../go.mod" 2>/dev/null) or newer, https://go.dev/dl/; or set GO)")
fi

# te_cp_cached NAME "V1 V2": the resolved classpath of testenv/poms/NAME is in the cache
# for one of the versions (then te_classpath needs no Maven).
te_cp_cached() {
	local h v
	h=$(sha1sum "$TE_DIR/poms/$1/pom.xml" | cut -c1-8)
	for v in $2; do
		te_cp_ok "$TE_CACHE/cp/$1-$v-$h.txt" && return 0
	done
	return 1
}

if [ "$mode" = all ]; then
	for t in flock setsid timeout unzip sha1sum; do
		if command -v "$t" >/dev/null 2>&1; then
			have+=("$t")
		else
			missing+=("$t (Debian/Ubuntu: util-linux, coreutils, unzip)")
		fi
	done
	if msg=$( (te_check_java && echo "TE_JAVAC=$TE_JAVAC" && echo "TE_JAVA=$TE_JAVA") 2>&1); then
		javac=$(sed -n 's/^TE_JAVAC=//p' <<<"$msg")
		java=$(sed -n 's/^TE_JAVA=//p' <<<"$msg")
		have+=("Java $(te_java_major "$java") ($java)")
		if command -v "$javac" >/dev/null 2>&1; then
			have+=(javac)
		else
			missing+=("javac: \"$javac\" not found beside $java (install the JDK, not only the JRE: Debian/Ubuntu openjdk-17-jdk-headless)")
		fi
	else
		missing+=("Java 17: $(sed -n 's/^\[testenv\] ERROR: //p' <<<"$msg" | head -n 1) (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless)")
	fi
	if command -v mvn >/dev/null 2>&1; then
		have+=(mvn)
	else
		uncached=()
		te_cp_cached kafka "$TE_KAFKA_VERSIONS" || uncached+=(kafka)
		te_cp_cached hdfs-server "$TE_HADOOP_VERSIONS" || uncached+=(hdfs-server)
		te_cp_cached hbase-server "$TE_HBASE_VERSIONS" || uncached+=(hbase-server)
		te_cp_cached ycsb "$TE_HBASE_CLIENT_VERSIONS" || uncached+=(ycsb)
		if [ ${#uncached[@]} -gt 0 ]; then
			missing+=("mvn (Maven 3.8+): it fetches the servers' jars on the first run, and $TE_CACHE has none for: ${uncached[*]} (Debian/Ubuntu: apt-get install maven)")
		else
			have+=("no mvn, but every jar is cached in $TE_CACHE")
		fi
	fi
fi

if [ ${#missing[@]} -gt 0 ]; then
	{
		echo "testenv/check.sh: the test command ($mode) cannot run; missing:"
		printf '  - %s\n' "${missing[@]}"
	} >&2
	exit 1
fi
line=
for h in "${have[@]}"; do
	line+=${line:+; }$h
done
te_log "check ($mode): $line"
