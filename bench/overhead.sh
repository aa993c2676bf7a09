#!/usr/bin/env bash
# bench/overhead.sh: the client overhead of gobench against Java YCSB 0.17.0 and
# go-ycsb v1.0.3, each with its no-op driver (gobench basic, Java site.ycsb.BasicDB
# with basicdb.verbose=false, go-ycsb basic), on the same property file
# (workloads/workloada: 50 % reads, 50 % updates, zipfian) with recordcount=100000.
#
# For each thread count it runs the three tools one after the other (interleaved,
# the order rotating every round, because a shared machine is noisy), ROUNDS times,
# and prints the median throughput, the ratios, the CPU time per operation and the
# peak RSS; then one run of each at RSS_THREADS threads for the peak RSS.
#
# Steady state, warm-up left out: gobench and Java YCSB each run for WARMUP+DURATION
# seconds (maxexecutiontime) with a status line per second, and only the window after
# the first WARMUP seconds counts: throughput = the operations of the window over its
# length (from the status lines), CPU per operation = the process's utime+stime over
# the window (from /proc every 0.5 s, interpolated at its ends; the JVM's JIT and GC
# threads included) over those operations; the same code as bench/hbase.sh
# (bench/lib/window.awk). Java's first seconds run interpreted and then half-compiled
# code: a run of a fixed 3 000 000 operations (this script until 2026-12-04) is over in
# about a second, and at 1 thread such a run gave Java 2.1-3.2 M ops/s against 3.8-4.2 M
# in the window of a long one. go-ycsb has neither maxexecutiontime nor YCSB's status
# lines; it is Go like gobench, without a JIT, so it runs GOYCSB_OPS operations and its
# figures are those of the whole run (start-up included, milliseconds).
#
# Usage: bench/overhead.sh          (from any directory; about 20 minutes, more on first run)
# Needs: go, java (8+), mvn, /usr/bin/time (Debian package "time").
# Environment (defaults in brackets):
#   THREADS ["1 2 64 1000"]  WARMUP [10] s  DURATION [20] s  GOYCSB_OPS [20000000]
#   ROUNDS [3]  RECORDS [100000]  RSS_THREADS [10000]  RSS_OPS [1000000] (the RSS runs:
#   a fixed operation count, peak RSS of the whole run)
#   GOBENCH_CACHE [~/.cache/gobench-bench]: Maven jars, the go-ycsb build
#   JAVA_OPTS [""]: extra JVM flags (the default is the JVM's own defaults)
#   KEEP=1: keep the per-run logs (their directory is printed)
#   RESULTS=<dir>/results: print the tables of an earlier run (kept with KEEP=1) again
#   from its results file, nothing runs (THREADS and RSS_THREADS as that run's)
#
# Besides the medians, each thread count gets the ratios of its rounds, gobench's figure
# over Java's of the same round (the two ran within a minute of each other, so a slow
# spell of a shared machine weighs on both): their median and range. On a noisy machine
# the paired ratios move less than the ratio of two medians taken minutes apart.
#
# Downloads (first run only, cached): site.ycsb:core:0.17.0 and its dependencies
# from Maven Central (bench/overhead/pom.xml), and the go-ycsb v1.0.3 module from
# the Go module proxy, built in the cache as a main module (go install refuses it
# because of its replace directive). If its full set of database bindings cannot
# be built here, the copy is trimmed to the basic binding and the script says so.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${GOBENCH_CACHE:-$HOME/.cache/gobench-bench}
THREADS=${THREADS:-1 2 64 1000}
WARMUP=${WARMUP:-10}
DURATION=${DURATION:-20}
GOYCSB_OPS=${GOYCSB_OPS:-20000000}
ROUNDS=${ROUNDS:-3}
RECORDS=${RECORDS:-100000}
RSS_THREADS=${RSS_THREADS:-10000}
RSS_OPS=${RSS_OPS:-1000000}
JAVA_OPTS=${JAVA_OPTS:-}
WORKLOAD=$ROOT/workloads/workloada
YCSB_VERSION=0.17.0
GOYCSB_VERSION=v1.0.3
MAVEN_URL=${GOBENCH_MAVEN_URL:-https://repo.maven.apache.org/maven2}

log() { printf '%s\n' "$*" >&2; }
die() { log "overhead.sh: $*"; exit 1; }
. "$ROOT/bench/lib/proc.sh" # now, cputicks

for v in WARMUP DURATION GOYCSB_OPS ROUNDS RECORDS RSS_THREADS RSS_OPS; do
	[[ ${!v} =~ ^[0-9]+$ ]] && [ "${!v}" -gt 0 ] || { log "overhead.sh: $v=\"${!v}\": want a whole number above 0"; exit 2; }
done
for t in $THREADS; do
	[[ $t =~ ^[0-9]+$ ]] && [ "$t" -gt 0 ] || { log "overhead.sh: THREADS: \"$t\": want whole numbers above 0"; exit 2; }
done

for t in go java mvn; do
	command -v "$t" >/dev/null 2>&1 || die "$t not found in PATH"
done
[ -x /usr/bin/time ] || die "/usr/bin/time not found (Debian: apt-get install -y time)"
[ -f "$WORKLOAD" ] || die "workload file $WORKLOAD not found"

RESULTS=${RESULTS:-}
if [ -n "$RESULTS" ]; then
	[ -f "$RESULTS" ] || { log "overhead.sh: RESULTS=\"$RESULTS\": no such file (want the results file of a run kept with KEEP=1)"; exit 2; }
	awk 'NF != 6 && NF != 7 { exit 1 }' "$RESULTS" || { log "overhead.sh: RESULTS=\"$RESULTS\": not a results file of overhead.sh (lines of 6 or 7 fields: tool threads ops/s cpu rss load [round])"; exit 2; }
	for t in $THREADS; do
		grep -q "^gobench $t " "$RESULTS" || { log "overhead.sh: RESULTS=\"$RESULTS\" has no gobench run at $t threads (THREADS=\"$THREADS\"; set THREADS to that run's)"; exit 2; }
	done
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gobench-overhead.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
	log "per-run logs kept in $WORK"
else
	trap 'rm -rf "$WORK"' EXIT
fi
if [ -z "$RESULTS" ]; then # (RESULTS: nothing to build or fetch)
	mkdir -p "$CACHE"

	# ---- gobench: built from this checkout -------------------------------------
	log "building gobench from $ROOT"
	(cd "$ROOT" && go build -o "$WORK/gobench" ./cmd/gobench) || die "go build ./cmd/gobench failed"
	GOBENCH=$WORK/gobench

	# ---- Java YCSB 0.17.0: jars from Maven Central -----------------------------
	YCSB_LIB=$CACHE/ycsb-$YCSB_VERSION/lib
	if ! ls "$YCSB_LIB"/core-$YCSB_VERSION.jar >/dev/null 2>&1; then
		log "fetching site.ycsb:core:$YCSB_VERSION and dependencies from Maven Central (first run only)"
		cat >"$CACHE/settings.xml" <<-EOF
	<settings xmlns="http://maven.apache.org/SETTINGS/1.2.0">
	  <localRepository>$CACHE/m2</localRepository>
	  <mirrors>
	    <mirror><id>central-only</id><mirrorOf>*</mirrorOf><url>$MAVEN_URL</url></mirror>
	  </mirrors>
	</settings>
	EOF
		rm -rf "$YCSB_LIB.tmp"
		mvn -B -q -s "$CACHE/settings.xml" -f "$ROOT/bench/overhead/pom.xml" \
			-Dycsb.version=$YCSB_VERSION dependency:copy-dependencies \
			-DincludeScope=runtime -DoutputDirectory="$YCSB_LIB.tmp" >"$WORK/mvn.log" 2>&1 ||
			{ tail -n 20 "$WORK/mvn.log" >&2; die "mvn could not fetch YCSB $YCSB_VERSION"; }
		rm -rf "$YCSB_LIB" && mv "$YCSB_LIB.tmp" "$YCSB_LIB"
	fi
	YCSB_CP="$YCSB_LIB/*"

	# ---- go-ycsb v1.0.3: module source from the Go module proxy ----------------
	GOYCSB_DIR=$CACHE/go-ycsb-$GOYCSB_VERSION
	GOYCSB=$GOYCSB_DIR/go-ycsb
	if [ ! -x "$GOYCSB" ]; then
		log "fetching github.com/pingcap/go-ycsb@$GOYCSB_VERSION from the Go module proxy (first run only)"
		moddir=$(cd "$WORK" && GOFLAGS=-mod=mod go mod download -json "github.com/pingcap/go-ycsb@$GOYCSB_VERSION" |
			sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
		[ -d "$moddir" ] || die "go mod download github.com/pingcap/go-ycsb@$GOYCSB_VERSION gave no directory"
		rm -rf "$GOYCSB_DIR" && mkdir -p "$GOYCSB_DIR"
		cp -r "$moddir" "$GOYCSB_DIR/src" && chmod -R u+w "$GOYCSB_DIR/src"
		log "building go-ycsb with all its bindings (minutes on first run)"
		if (cd "$GOYCSB_DIR/src" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -o "$GOYCSB.tmp" ./cmd/go-ycsb) \
			>"$GOYCSB_DIR/build.log" 2>&1; then
			echo "all bindings of cmd/go-ycsb/main.go" >"$GOYCSB_DIR/bindings"
		else
			tail -n 5 "$GOYCSB_DIR/build.log" >&2
			log "full go-ycsb build failed; trimming cmd/go-ycsb/main.go to the basic binding (scratch copy only)"
			sed -i '/_ "github.com\/pingcap\/go-ycsb\/db\//{/\/db\/basic"/!d}' "$GOYCSB_DIR/src/cmd/go-ycsb/main.go"
			(cd "$GOYCSB_DIR/src" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -o "$GOYCSB.tmp" ./cmd/go-ycsb) \
				>>"$GOYCSB_DIR/build.log" 2>&1 || { tail -n 20 "$GOYCSB_DIR/build.log" >&2; die "go-ycsb build failed"; }
			echo "basic binding only (main.go trimmed: the full build failed here)" >"$GOYCSB_DIR/bindings"
		fi
		mv "$GOYCSB.tmp" "$GOYCSB"
	fi
fi

# ---- one run ---------------------------------------------------------------
# run TOOL THREADS MODE TAG: runs TOOL under /usr/bin/time -v, then appends
# "TOOL THREADS ops/s cpu_us_per_op rss_MB load1" to $WORK/results. MODE "window":
# WARMUP+DURATION seconds, figures over the window after WARMUP (go-ycsb: GOYCSB_OPS
# operations, the whole run); a number: that many operations, figures of the whole run
# (the RSS runs).
run() {
	local tool=$1 threads=$2 mode=$3 tag=$4 load tput cpu rss n ops out tpid cpid c w
	out=$WORK/$tool-$threads-$tag
	load=$(cut -d' ' -f1 /proc/loadavg)
	ops=$mode
	local count=(-p operationcount="$ops")
	if [ "$mode" = window ]; then
		# (operationcount: a bound maxexecutiontime reaches first; Java YCSB 0.17 takes
		# operationcount=0 as "no thread" and does nothing)
		count=(-p operationcount=1000000000 -p maxexecutiontime=$((WARMUP + DURATION)) -s -p status.interval=1)
		if [ "$tool" = go-ycsb ]; then ops=$GOYCSB_OPS count=(-p operationcount="$ops"); fi
	fi
	case $tool in
	gobench)
		/usr/bin/time -v -o "$out.time" "$GOBENCH" run basic -P "$WORKLOAD" \
			-p recordcount="$RECORDS" "${count[@]}" -threads "$threads" \
			>"$out.log" 2>&1 & ;;
	java)
		# shellcheck disable=SC2086
		/usr/bin/time -v -o "$out.time" java $JAVA_OPTS -cp "$YCSB_CP" site.ycsb.Client -t \
			-db site.ycsb.BasicDB -P "$WORKLOAD" -p basicdb.verbose=false \
			-p recordcount="$RECORDS" "${count[@]}" -threads "$threads" \
			>"$out.log" 2>&1 & ;;
	go-ycsb)
		/usr/bin/time -v -o "$out.time" "$GOYCSB" run basic -P "$WORKLOAD" \
			-p recordcount="$RECORDS" "${count[@]}" --threads "$threads" \
			-p verbose=false -p debug.pprof=127.0.0.1:0 \
			>"$out.log" 2>&1 & ;;
	esac
	tpid=$!
	# The tool's CPU while it runs: /usr/bin/time's child, sampled every 0.5 s.
	: >"$out.cpu"
	cpid=
	while kill -0 "$tpid" 2>/dev/null; do
		[ -n "$cpid" ] || cpid=$(pgrep -P "$tpid" | head -n 1 || true)
		if [ -n "$cpid" ]; then
			c=$(cputicks "$cpid")
			[ -z "$c" ] || echo "$(now) $c" >>"$out.cpu"
		fi
		sleep 0.5
	done
	wait "$tpid" || true
	grep -q 'Exit status: 0' "$out.time" 2>/dev/null ||
		{ tail -n 20 "$out.log" >&2; die "$tool with $threads threads failed (log above)"; }
	if [ "$mode" = window ] && [ "$tool" != go-ycsb ]; then
		read -r -a w < <(awk -v warm="$WARMUP" -v cols=1 -f "$ROOT/bench/lib/window.awk" "$out.cpu" "$out.log")
		# w: ops seconds ops/s read-p99 update-p99 cpu-ticks
		if ! awk -v s="${w[1]}" -v d="$DURATION" 'BEGIN { exit !(s >= 0.8 * d) }'; then
			# The tool's status lines stopped (Java YCSB at 1000 threads once printed none
			# from its 5th second to its 313th, and ran 315 s for a maxexecutiontime of 30):
			# no steady window to measure, so the run is left out of the tables and named
			# under them, and the rounds go on.
			local gap wall
			gap=$(awk '/ sec: / { split($2, t, /[:.]/); s = t[1] * 3600 + t[2] * 60 + t[3] + t[4] / 1000
				if (p != "" && s - p > g) g = s - p; p = s } END { printf "%.0f", g }' "$out.log")
			wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$out.time")
			log "  $tool $threads threads: a window of ${w[1]} s after the warm-up, want about $DURATION: left out (status lines in $out.log)"
			echo "$tool at $threads threads, round $tag: no steady window (its status lines stopped for ${gap:-?} s; the run took $wall for maxexecutiontime=$((WARMUP + DURATION)) s); left out" >>"$WORK/stalls"
			return 0
		fi
		tput=$(printf '%.1f' "${w[2]}")
		cpu=$(awk -v t="${w[5]}" -v n="${w[0]}" -v tck="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f", t / tck * 1e6 / n }')
	else
		case $tool in
		go-ycsb)
			# "Run finished, takes 4.2s" then per-operation "Count: N"; ops/s = sum / takes.
			# (Only the block after it: go-ycsb prints the same lines every 10 s while it runs.)
			tput=$(awk '
				/^Run finished, takes / { fin = 1; d = $4; s = 0
					if (d ~ /h/) { split(d, a, "h"); s += a[1] * 3600; d = a[2] }
					if (d ~ /m[0-9]/) { split(d, a, "m"); s += a[1] * 60; d = a[2] }
					if (d ~ /ms$/) { sub(/ms$/, "", d); s += d / 1000 }
					else if (d ~ /µs$/) { sub(/µs$/, "", d); s += d / 1e6 }
					else { sub(/s$/, "", d); s += d } secs = s }
				fin && /^(READ|UPDATE|INSERT|SCAN|DELETE|READ_MODIFY_WRITE) +- / {
					for (i = 1; i <= NF; i++) if ($i == "Count:") { c = $(i+1); sub(/,/, "", c); n += c } }
				END { if (secs > 0 && n > 0) printf "%.1f %d", n / secs, n }' "$out.log") ;;
		*)
			tput=$(awk -F', ' '
				/^\[OVERALL\], Throughput\(ops\/sec\)/ { t = $3 }
				/^\[(READ|UPDATE)\], Operations/ { n += $3 }
				END { if (t > 0) printf "%.1f %d", t, n }' "$out.log") ;;
		esac
		[ -n "$tput" ] || { tail -n 20 "$out.log" >&2; die "no throughput in the output of $tool ($threads threads)"; }
		n=${tput#* }
		tput=${tput% *}
		[ "$n" -ge $((ops * 99 / 100)) ] || die "$tool ($threads threads) reported $n operations, want $ops"
		cpu=$(awk -F': ' -v ops="$ops" '
			/User time \(seconds\)/ { u = $2 } /System time \(seconds\)/ { s = $2 }
			END { printf "%.3f", (u + s) * 1e6 / ops }' "$out.time")
	fi
	rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$out.time")
	echo "$tool $threads $tput $cpu $rss $load $tag" >>"$WORK/results"
	log "  $(printf '%-8s %5s threads  %12s ops/s  %8s us CPU/op  %7s MB RSS  load %s' \
		"$tool" "$threads" "$tput" "$cpu" "$rss" "$load")"
}

# median TOOL THREADS COLUMN: the median of a column over the rounds.
median() {
	awk -v t="$1" -v th="$2" -v c="$3" '$1 == t && $2 == th { print $c }' "$WORK/results" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ---- machine and versions --------------------------------------------------
if [ -n "$RESULTS" ]; then
	cp "$RESULTS" "$WORK/results"
	[ ! -f "$(dirname "$RESULTS")/stalls" ] || cp "$(dirname "$RESULTS")/stalls" "$WORK/stalls"
	echo "== gobench client overhead: the tables of $RESULTS again (RESULTS; nothing ran)"
	echo
else
	echo "== gobench client overhead: gobench vs Java YCSB $YCSB_VERSION vs go-ycsb $GOYCSB_VERSION (no-op drivers)"
	echo "date:      $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine:   $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, Linux $(uname -r)"
	echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at start (the machine may be shared)"
	echo "gobench:   $(cd "$ROOT" && git describe --always --dirty 2>/dev/null || echo unknown), $(go version | cut -d' ' -f3-)"
	echo "Java YCSB: site.ycsb:core:$YCSB_VERSION, $(java -version 2>&1 | head -n 1)${JAVA_OPTS:+, JAVA_OPTS=$JAVA_OPTS}"
	echo "go-ycsb:   $GOYCSB_VERSION built with $(go version | cut -d' ' -f3), $(cat "$GOYCSB_DIR/bindings" 2>/dev/null || echo unknown)"
	echo "workload:  $WORKLOAD, recordcount=$RECORDS"
	echo "measured:  gobench and Java YCSB: $((WARMUP + DURATION)) s runs, the window after the first $WARMUP s (steady state: Java's JIT done);"
	echo "           go-ycsb: whole runs of $GOYCSB_OPS operations; RSS runs: $RSS_OPS operations at $RSS_THREADS threads, whole run"
	echo "runs:      $ROUNDS interleaved rounds per thread count, median shown; ratio = gobench / other"
	echo

	TOOLS=(gobench java go-ycsb)
	for ((r = 0; r < ROUNDS; r++)); do
		log "round $((r + 1))/$ROUNDS"
		for t in $THREADS; do
			for ((i = 0; i < 3; i++)); do
				run "${TOOLS[$(((i + r) % 3))]}" "$t" window "r$r"
			done
		done
	done
	log "peak RSS at $RSS_THREADS threads"
	for tool in "${TOOLS[@]}"; do
		run "$tool" "$RSS_THREADS" "$RSS_OPS" rss
	done
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }
whole() { awk -v v="$1" 'BEGIN { if (v == "-") print "-"; else printf "%.0f", v }'; } # "-": no run

# paired THREADS COLUMN ORDER: the ratios of gobench's and Java's figures round by round
# (a round with only one of the two left out), "median (lowest-highest), N rounds";
# ORDER g/j divides gobench's figure by Java's, j/g Java's by gobench's.
paired() {
	awk -v th="$1" -v c="$2" -v order="$3" '
		$2 == th && ($1 == "gobench" || $1 == "java") {
			k = NF >= 7 ? $7 : ++seen[$1] # the round: its tag, or the order of the runs
			if ($1 == "gobench") g[k] = $c; else j[k] = $c
		}
		END {
			for (k in g) {
				if (!(k in j)) continue
				a = order == "g/j" ? g[k] : j[k]; b = order == "g/j" ? j[k] : g[k]
				if (b > 0) r[++m] = a / b
			}
			if (m == 0) { print "-"; exit }
			for (x = 2; x <= m; x++) for (y = x; y > 1 && r[y - 1] > r[y]; y--) { t = r[y]; r[y] = r[y - 1]; r[y - 1] = t }
			med = m % 2 ? r[(m + 1) / 2] : (r[m / 2] + r[m / 2 + 1]) / 2
			printf "%.2fx (%.2f-%.2f), %d rounds", med, r[1], r[m], m
		}' "$WORK/results"
}

printf '%-9s | %14s | %16s | %14s | %12s | %15s\n' threads "gobench ops/s" "Java YCSB ops/s" "go-ycsb ops/s" gobench/Java gobench/go-ycsb
printf '%s\n' "----------|----------------|------------------|----------------|--------------|----------------"
for t in $THREADS; do
	g=$(median gobench "$t" 3) j=$(median java "$t" 3) y=$(median go-ycsb "$t" 3)
	printf '%-9s | %14s | %16s | %14s | %12s | %15s\n' "$t" "$(whole "$g")" "$(whole "$j")" "$(whole "$y")" "$(ratio "$g" "$j")" "$(ratio "$g" "$y")"
done
g=$(median gobench "$RSS_THREADS" 5) j=$(median java "$RSS_THREADS" 5) y=$(median go-ycsb "$RSS_THREADS" 5)
printf '%-9s | %11s MB | %13s MB | %11s MB | %12s | %15s\n' "RSS@$RSS_THREADS" "$g" "$j" "$y" "$(ratio "$j" "$g")" "$(ratio "$y" "$g")"
echo "(RSS row: peak resident set of the whole process at $RSS_THREADS threads; its ratios are other / gobench)"
echo
echo "gobench against Java round by round (the two ran within a minute of each other): the ratios of each"
echo "round's figures, median (lowest-highest); ops/s gobench/Java, CPU per operation Java/gobench."
printf '%-9s | %-30s | %s\n' threads "ops/s gobench/Java" "CPU/op Java/gobench"
printf '%s\n' "----------|--------------------------------|-------------------------------"
for t in $THREADS; do
	printf '%-9s | %-30s | %s\n' "$t" "$(paired "$t" 3 g/j)" "$(paired "$t" 4 j/g)"
done
echo
echo "CPU time per operation: user+sys of the whole process (all its threads: JIT and GC included) over the"
echo "measured window / its operations (go-ycsb and the RSS row: the whole run, start-up included);"
echo "median over the rounds, microseconds; ratios are other / gobench. Less sensitive to machine load than ops/s."
printf '%-9s | %8s | %8s | %8s | %12s | %15s\n' threads gobench Java go-ycsb Java/gobench go-ycsb/gobench
printf '%s\n' "----------|----------|----------|----------|--------------|----------------"
for t in $THREADS $RSS_THREADS; do
	g=$(median gobench "$t" 4) j=$(median java "$t" 4) y=$(median go-ycsb "$t" 4)
	printf '%-9s | %8s | %8s | %8s | %12s | %15s\n' "$t" "$g" "$j" "$y" "$(ratio "$j" "$g")" "$(ratio "$y" "$g")"
done
echo
echo "Peak RSS (MB, median) per thread count:"
printf '%-9s | %8s | %8s | %8s\n' threads gobench Java go-ycsb
printf '%s\n' "----------|----------|----------|---------"
for t in $THREADS $RSS_THREADS; do
	printf '%-9s | %8s | %8s | %8s\n' "$t" "$(median gobench "$t" 5)" "$(median java "$t" 5)" "$(median go-ycsb "$t" 5)"
done
echo
if [ -s "$WORK/stalls" ]; then
	echo "Left out of the tables (no steady state to measure):"
	sed 's/^/  /' "$WORK/stalls"
	echo
fi
seen=$(awk '{ print $6 }' "$WORK/results" | sort -g | sed -n '1p;$p' | paste -sd- -)
if [ -n "$RESULTS" ]; then
	echo "1-minute load seen at the start of the runs: $seen"
else
	echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at end; 1-minute load seen at the start of the runs: $seen"
fi
