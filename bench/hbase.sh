#!/usr/bin/env bash
# bench/hbase.sh [WORKLOAD...]: gobench's hbase driver against Java YCSB 0.17 (with testenv's
# HBase 2 binding, HBase's own client) on the same single-node testenv HBase, same workload
# files, same threads, like with like:
#   - pinning: the client (either tool) runs on CPU CLIENT_CPU (default 1) with taskset, and
#     every thread of the HBase JVM (master, RegionServer and ZooKeeper in one process) on
#     SERVER_CPU (default 0) for the run, so CPU one client saves cannot feed the server; the
#     server's former affinity is restored afterwards (also on interrupt);
#   - same length, warm-up excluded for both: each run lasts WARMUP+DURATION seconds
#     (maxexecutiontime; default 20 + 70) with one status line per second; only the status
#     lines after the first WARMUP seconds count, so Java's interpreter/C1 phase and both
#     tools' connection set-up are left out (runs were 100 000 operations, 4-17 s, before:
#     90 s is over 5x the longest);
#   - measured over that window, for each tool: throughput (operations done in it / its
#     length), READ and UPDATE p99 (the median of the per-second p99 of the status lines:
#     the same statistic for both tools), client CPU seconds per 100 000 operations
#     (utime+stime of the client process from /proc, sampled every 0.5 s, interpolated at the
#     window's ends) and the HBase JVM's CPU seconds per 100 000 operations (same way), and
#     each process's context switches per operation (voluntary and involuntary, summed over
#     its threads from /proc/PID/task/*/status, same way: about how often a thread of it
#     slept and was woken, which at a low rate is most of what an operation costs).
# The two tools alternate which goes first from one (workload, threads) to the next.
#
# WORKLOAD: names under workloads/ (default: workloada workloadc).
# Environment: RECORDS (100000), THREADS ("16 128"), WARMUP (20 s), DURATION (70 s), SPLITS (16),
# ROUNDS (1: with more, each (workload, threads) pair of runs is repeated, the tool that goes
# first alternating, and each figure is the median over the rounds, with the lowest and
# highest per-round ratio beside it: the run-to-run spread on this machine), CLIENT_CPU (1), SERVER_CPU (0), LOCK (/tmp/gobench-realservers.lock, taken around each load
# and each measured run, not the whole script; LOCK= for none), GOBENCH (a gobench binary with
# the hbase driver; default: built from ./cmd/gobench), PEER (another gobench binary: it takes
# Java YCSB's place, loading and running the second table the same way, for an A/B of two
# gobench builds under the same conditions; the columns are then gobench and peer), TARGET (ops/s
# for both tools, -target: the same offered load for both, below what either serves, so that
# CPU per operation compares the clients at one rate instead of at whatever rate the server
# reached in that run; a tool that falls more than 2 % short of it is named; default: none),
# REPORT_DIR (the logs directory of an earlier run, printed first: its tables printed again,
# with the same WORKLOADs, THREADS, ROUNDS, WARMUP, TARGET and PEER as that run; nothing runs).
# With more than one round, each (workload, threads) also gets one line per round (its
# throughput and CPU ratios), and with 3 rounds or more and no TARGET the CPU ratios at equal
# throughput: unthrottled, a run that reached a higher rate costs less CPU per operation, so
# the per-round CPU ratios follow the throughput ratio, and a least-squares line of
# log(CPU ratio) on log(throughput ratio) through the rounds is read at ratio 1 (only when
# the rounds' throughput ratios include 1).
# Starts HBase with testenv/up.sh hbase if needed. Each side loads its own table
# (gobench_bench_go / gobench_bench_java, pre-split at YCSB's keys) and runs every workload on
# it; after both loads each table is flushed and major-compacted and the script waits until no
# compaction runs (testenv/hbase-create-table.sh --compact), so a load's aftermath falls into
# no measured window; the tables stay afterwards and the next run drops and recreates them.
set -u -o pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
records=${RECORDS:-100000}
threads_list=${THREADS:-16 128}
warmup=${WARMUP:-20}
duration=${DURATION:-70}
splits=${SPLITS:-16}
ccpu=${CLIENT_CPU:-1}
scpu=${SERVER_CPU:-0}
lock=${LOCK-/tmp/gobench-realservers.lock}
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(workloada workloadc)
rounds=${ROUNDS:-1}
target=${TARGET:-0}
for v in records warmup duration splits ccpu scpu rounds target; do
	[[ ${!v} =~ ^[0-9]+$ ]] || { echo "bench/hbase.sh: $v=\"${!v}\": want a whole number" >&2; exit 2; }
done
ncpu=$(nproc)
[ "$ccpu" -lt "$ncpu" ] && [ "$scpu" -lt "$ncpu" ] && [ "$ccpu" != "$scpu" ] ||
	{ echo "bench/hbase.sh: CLIENT_CPU=$ccpu SERVER_CPU=$scpu: want two different CPUs below $ncpu (nproc)" >&2; exit 2; }
command -v taskset >/dev/null || { echo "bench/hbase.sh: needs taskset (util-linux)" >&2; exit 2; }
for w in "${workloads[@]}"; do
	[ -f "workloads/$w" ] || { echo "bench/hbase.sh: no workload file workloads/$w" >&2; exit 2; }
done
report_dir=${REPORT_DIR:-}
peer=${PEER:-}
locked() { if [ -n "$lock" ]; then flock "$lock" "$@"; else "$@"; fi; }
if [ -n "$report_dir" ]; then
	[ -d "$report_dir" ] || { echo "bench/hbase.sh: REPORT_DIR=\"$report_dir\": not a directory" >&2; exit 2; }
	out=$report_dir
else
	out=$(mktemp -d "${TMPDIR:-/tmp}/gobench-hbase-bench.XXXXXX")
	echo "bench/hbase.sh: logs in $out" >&2
	locked testenv/up.sh hbase >&2 || { echo "bench/hbase.sh: HBase did not start" >&2; exit 1; }
	gobench=${GOBENCH:-}
	if [ -z "$gobench" ]; then
		gobench=$out/gobench
		go build -o "$gobench" ./cmd/gobench || exit 1
	fi
	if [ -n "$peer" ]; then
		[ -x "$peer" ] || { echo "bench/hbase.sh: PEER=\"$peer\": want an executable gobench binary" >&2; exit 2; }
	fi
fi
# The command in Java's place: Java YCSB, or the peer build (-db hbase as gobench's).
javarun=(testenv/ycsb.sh run)
[ -z "$peer" ] || javarun=("$peer" run -db hbase)
tgo=gobench_bench_go
tjava=gobench_bench_java
pidfile=${GOBENCH_RUN:-/tmp/gobench-testenv}/hbase/pid
tck=$(getconf CLK_TCK)
fail() { echo "bench/hbase.sh: $1 failed; see $2" >&2; exit 1; }
. bench/lib/proc.sh # now, cputicks, switches

# The server's affinity, restored on exit.
spid=
smask=
restore() { [ -z "$smask" ] || taskset -a -p "$smask" "$spid" >/dev/null 2>&1; smask=; }
trap 'restore' EXIT
trap 'restore; exit 130' INT TERM
pin_server() {
	spid=$(cat "$pidfile" 2>/dev/null)
	[ -n "$spid" ] && [ -d "/proc/$spid" ] || { echo "bench/hbase.sh: no HBase process (pid file $pidfile)" >&2; return 1; }
	smask=$(taskset -p "$spid" | awk '{ print $NF }')
	taskset -a -p -c "$scpu" "$spid" >/dev/null
}

# measured TOOL NAME WORKLOAD THREADS: one run under the lock, the server pinned, the client
# pinned; its report in $out/NAME, status lines in NAME.err, CPU samples in NAME.cpu
# ("epoch client-ticks server-ticks client-switches server-switches").
measured() {
	local tool=$1 name=$2 w=$3 t=$4 cpid rc
	local common=(-P "workloads/$w" -threads "$t" -s -p "recordcount=$records" -p operationcount=1000000000
		-p "maxexecutiontime=$((warmup + duration))" -p status.interval=1)
	[ "$target" = 0 ] || common+=(-target "$target")
	pin_server || return 1
	# (operationcount: a bound that maxexecutiontime reaches first; Java YCSB 0.17 takes
	# operationcount=0 as "no thread" and does nothing)
	case $tool in
	gobench) taskset -c "$ccpu" "$gobench" run -db hbase "${common[@]}" -p "table=$tgo" >"$out/$name" 2>"$out/$name.err" & ;;
	java) taskset -c "$ccpu" "${javarun[@]}" "${common[@]}" -p "table=$tjava" >"$out/$name" 2>"$out/$name.err" & ;;
	esac
	cpid=$!
	: >"$out/$name.cpu"
	while kill -0 "$cpid" 2>/dev/null; do
		local c s cw sw
		c=$(cputicks "$cpid") s=$(cputicks "$spid") cw=$(switches "$cpid") sw=$(switches "$spid")
		[ -z "$c" ] || [ -z "$cw" ] || [ -z "$sw" ] || echo "$(now) $c $s $cw $sw" >>"$out/$name.cpu"
		sleep 0.5
	done
	wait "$cpid"
	rc=$?
	restore
	return $rc
}
# lock_on / lock_off: hold LOCK around one measured run (in this shell, so the trap that
# restores the server's affinity stays in force).
lockfd=
lock_on() { [ -z "$lock" ] || { exec {lockfd}>>"$lock" && flock "$lockfd"; }; }
lock_off() { [ -z "$lockfd" ] || { exec {lockfd}>&-; lockfd=; }; }

# window NAME: from the status lines after WARMUP seconds and the CPU samples, the line
# "ops seconds throughput read-p99 update-p99 client-cpu-s server-cpu-s client-switches
# server-switches" of the window (bench/lib/window.awk).
window() {
	awk -v warm="$warmup" -v cols=4 -f bench/lib/window.awk "$out/$1.cpu" "$out/$1.err" | awk -v tck="$tck" '
	$2 == 0 { print "0 0 0 0 0 0 0 0 0"; next }
	{ printf "%d %.1f %.0f %.0f %.0f %.2f %.2f %.0f %.0f\n", $1, $2, $3, $4, $5, $6 / tck, $7 / tck, $8, $9 }'
}

# report LABEL NAME...: the side-by-side lines of one (workload, threads) from its rounds
# runs NAME.gobench and NAME.java: each figure the median over the rounds; with more than one
# round, the lowest and highest per-round ratio after it.
report() {
	local label=$1 n g j all=
	shift
	for n in "$@"; do
		read -r -a g < <(window "$n.gobench")
		read -r -a j < <(window "$n.java")
		all+="${g[*]} ${j[*]};"
	done
	awk -v n="$label" -v all="$all" -v target="$target" -v side="$side" 'BEGIN {
		nr = split(all, rs, ";") - 1
		for (r = 1; r <= nr; r++) {
			split(rs[r], v, " ")
			# v[1..9]: gobench ops seconds tput rp99 up99 ccpu scpu csw ssw; v[10..18]: java
			G[1, r] = v[3]; J[1, r] = v[12]
			G[2, r] = v[4]; J[2, r] = v[13]
			G[3, r] = v[5]; J[3, r] = v[14]
			G[4, r] = v[1] ? v[6] * 100000 / v[1] : 0; J[4, r] = v[10] ? v[15] * 100000 / v[10] : 0
			G[5, r] = v[1] ? v[7] * 100000 / v[1] : 0; J[5, r] = v[10] ? v[16] * 100000 / v[10] : 0
			G[6, r] = v[1]; J[6, r] = v[10]
			G[7, r] = v[1] ? v[8] / v[1] : 0; J[7, r] = v[10] ? v[17] / v[10] : 0
			G[8, r] = v[1] ? v[9] / v[1] : 0; J[8, r] = v[10] ? v[18] / v[10] : 0
		}
		line(1, "throughput ops/s", "%12.0f", 0)
		if (med(G, 2) + med(J, 2) > 0) line(2, "READ p99 us", "%12.0f", 1)
		if (med(G, 3) + med(J, 3) > 0) line(3, "UPDATE p99 us", "%12.0f", 1)
		line(4, "client CPU s/100k ops", "%12.2f", 0)
		line(5, "server CPU s/100k ops", "%12.2f", 0)
		line(7, "client switches/op", "%12.2f", 0)
		line(8, "server switches/op", "%12.2f", 0)
		line(6, "ops in window", "%12.0f", -1)
		if (nr > 1) rounds_lines()
		if (target > 0) {
			if (med(G, 1) < 0.98 * target) printf "%-10s gobench fell short of TARGET=%d ops/s: its CPU per operation is not at the same rate\n", n, target
			if (med(J, 1) < 0.98 * target) printf "%-10s %s fell short of TARGET=%d ops/s: its CPU per operation is not at the same rate\n", n, side, target
		}
	}
	# One line per round: its throughput and CPU ratios side by side. Unthrottled, a run that
	# reached a higher rate costs less CPU per operation (more responses per wake-up) on both
	# sides, so the CPU ratios follow the throughput ratio from round to round; with 3 rounds
	# or more and no TARGET, a least-squares line of log(CPU ratio) on log(throughput ratio)
	# through the rounds gives the CPU ratios at equal throughput (its value at ratio 1), when
	# the throughput ratios of the rounds include 1 (read inside them, not beyond).
	function rounds_lines(   r, m, k, x, y, sx, sy, sxx, sxy, b, est) {
		for (r = 1; r <= nr; r++)
			printf "%-10s %-22s throughput %.2fx, client CPU %.2fx, server CPU %.2fx\n", n, "round " r, ratio(1, r, 0), ratio(4, r, 0), ratio(5, r, 0)
		if (nr < 3 || target > 0) return
		span(1, 0)
		if (LO > 1 || HI < 1) { # a read outside the rounds would be a guess
			printf "%-10s %-22s not estimated: the throughput ratios of the rounds (%.2f-%.2f) do not include 1\n", n, "at equal throughput", LO, HI
			return
		}
		printf "%-10s %-22s", n, "at equal throughput"
		for (m = 4; m <= 5; m++) {
			k = sx = sy = sxx = sxy = 0
			for (r = 1; r <= nr; r++) {
				if (ratio(1, r, 0) <= 0 || ratio(m, r, 0) <= 0) continue
				x = log(ratio(1, r, 0)); y = log(ratio(m, r, 0))
				k++; sx += x; sy += y; sxx += x * x; sxy += x * y
			}
			est = "n/a"
			if (k >= 3 && k * sxx - sx * sx > 1e-12) {
				b = (k * sxy - sx * sy) / (k * sxx - sx * sx)
				est = sprintf("%.2fx", exp((sy - b * sx) / k))
			}
			printf " %s %s%s", m == 4 ? "client CPU" : "server CPU", est, m == 4 ? "," : ""
		}
		printf "  (fit of the per-round CPU ratios on the throughput ratios)\n"
	}
	# span: LO and HI, the lowest and highest per-round ratio of metric m
	function span(m, inv,   r, x) {
		LO = HI = ratio(m, 1, inv)
		for (r = 2; r <= nr; r++) { x = ratio(m, r, inv); if (x < LO) LO = x; if (x > HI) HI = x }
	}
	# ratio of round r for metric m: gobench/java, or java/gobench when inv
	function ratio(m, r, inv) {
		if (inv) return G[m, r] > 0 ? J[m, r] / G[m, r] : 0
		return J[m, r] > 0 ? G[m, r] / J[m, r] : 0
	}
	function med(A, m,   r, x) { for (r = 1; r <= nr; r++) x[r] = A[m, r]; return median(x, nr) }
	function median(a, k,   i, j, t, v) {
		for (i = 1; i <= k; i++) v[i] = a[i]
		for (i = 2; i <= k; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
		return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
	}
	function line(m, what, f, inv,   a, b, r) {
		a = med(G, m); b = med(J, m)
		printf "%-10s %-22s " f " " f, n, what, a, b
		if (inv < 0) { printf "\n"; return }
		r = inv ? (a > 0 ? b / a : 0) : (b > 0 ? a / b : 0)
		printf " %7.2fx", r
		if (nr > 1) { span(m, inv); printf "  (%.2f-%.2f)", LO, HI }
		printf "\n"
	}'
}

side=java
[ -z "$peer" ] || side=peer
# REPORT_DIR: the tables again from the logs of an earlier run (the same WORKLOADs, THREADS,
# ROUNDS, WARMUP and TARGET as that run; PEER set if it had one); nothing runs, nothing loads.
if [ -n "$report_dir" ]; then
	echo "== bench/hbase.sh: the logs in $out (REPORT_DIR), $rounds rounds, each window after the first $warmup s"
else
	if [ -n "${GOBENCH:-}" ]; then gbver="$GOBENCH (GOBENCH)"; else gbver="built from $(git rev-parse --short HEAD 2>/dev/null)"; fi
	echo "== bench/hbase.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), gobench $gbver, load avg $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "client pinned to CPU $ccpu, HBase JVM (standalone: master + RegionServer + ZooKeeper) to CPU $scpu; $records records, $splits regions;"
	echo "each run $((warmup + duration)) s, measured over the status lines after the first $warmup s; p99 = median of the per-second p99"
	[ "$target" = 0 ] || echo "both tools throttled to $target ops/s (-target $target): CPU per operation at one offered rate"
	[ "$rounds" -le 1 ] || echo "$rounds rounds per (workload, threads), the tool that goes first alternating; figures are medians over the rounds, (lo-hi) the per-round ratios"
	# Load: each side into its own freshly created, pre-split table (not measured).
	# gobench_load BINARY TABLE LOG: a gobench build loads TABLE, dropped and created pre-split.
	gobench_load() {
		locked "$1" load -db hbase -P workloads/workloada -p "recordcount=$records" -threads 16 -p "table=$2" \
			-p hbase.droptable=true -p hbase.createtable=true -p "hbase.splits=$splits" >"$out/$3" 2>"$out/$3.err" ||
			fail "load by $1" "$out/$3.err"
	}
	gobench_load "$gobench" "$tgo" load.go
	if [ -n "$peer" ]; then
		gobench_load "$peer" "$tjava" load.java
	else
		locked testenv/hbase-create-table.sh "$tjava" family "$splits" --drop >"$out/create.java" 2>&1 ||
			fail "Java table creation" "$out/create.java"
		locked testenv/ycsb.sh load -P workloads/workloada -p "recordcount=$records" -threads 16 -p "table=$tjava" >"$out/load.java" 2>"$out/load.java.err" ||
			fail "Java YCSB load" "$out/load.java.err"
	fi

	[ -z "$peer" ] || echo "peer (in the java column): $peer (PEER)"
	# Settle both tables (flush, major compaction, wait until none runs), so that neither tool's
	# first windows carry the flushes and compactions of the loads.
	for tb in "$tgo" "$tjava"; do
		locked testenv/hbase-create-table.sh "$tb" family 0 --compact >>"$out/settle" 2>&1 || fail "settling $tb" "$out/settle"
	done
	echo "tables settled after the load: $(grep -h 'flushed and major-compacted' "$out/settle" | sed 's/^table //' | paste -sd ';' | sed 's/;/; /g')"
fi
printf "%-10s %-22s %12s %12s %8s\n" run metric gobench "$side" ratio
k=0
for w in "${workloads[@]}"; do
	for t in $threads_list; do
		names=()
		for ((r = 1; r <= rounds; r++)); do
			order=(gobench java)
			[ $((k % 2)) = 0 ] || order=(java gobench)
			k=$((k + 1))
			for tool in "${order[@]}"; do
				if [ -n "$report_dir" ]; then
					[ -s "$out/$w.$t.r$r.$tool.cpu" ] || { echo "bench/hbase.sh: no $out/$w.$t.r$r.$tool.cpu: not a run of these WORKLOADs, THREADS and ROUNDS" >&2; exit 2; }
					continue
				fi
				lock_on
				measured "$tool" "$w.$t.r$r.$tool" "$w" "$t" || { lock_off; fail "$tool run $w/$t" "$out/$w.$t.r$r.$tool.err"; }
				lock_off
			done
			names+=("$w.$t.r$r")
		done
		report "${w#workload}/$t" "${names[@]}"
	done
done
echo "ratios: throughput gobench/$side; p99 $side/gobench (above 1 = gobench faster); CPU and switches gobench/$side (below 1 = gobench cheaper)"
