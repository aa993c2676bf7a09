#!/usr/bin/env bash
# bench/hbase.sh [WORKLOAD...]: gobench's hbase driver against Java YCSB 0.17 (with testenv's
# HBase 2 binding) on the same testenv HBase, same workload files, same threads; prints each
# side's throughput, mean/p99 latency per operation and client CPU seconds per 100 000
# operations (user+sys from /usr/bin/time, JVM start-up included), and the ratios.
#
# WORKLOAD: names under workloads/ (default: workloada workloadc).
# Environment: RECORDS (default 100000), OPS (100000), THREADS (thread counts, "16 128"), SPLITS (16),
# GOBENCH (a gobench binary with the hbase driver; default: built from ./cmd/gobench).
# Starts HBase with testenv/up.sh hbase if needed. The two tables stay afterwards; the next
# run drops and recreates them.
# Each side loads its own table (gobench_bench_go / gobench_bench_java, pre-split at YCSB's
# keys) and runs every workload on it, so inserts of D/E never mix.
set -u -o pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
records=${RECORDS:-100000}
ops=${OPS:-100000}
threads_list=${THREADS:-16 128}
splits=${SPLITS:-16}
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(workloada workloadc)
[ -x /usr/bin/time ] || { echo "bench/hbase.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
for w in "${workloads[@]}"; do
	[ -f "workloads/$w" ] || { echo "bench/hbase.sh: no workload file workloads/$w" >&2; exit 2; }
done
out=$(mktemp -d "${TMPDIR:-/tmp}/gobench-hbase-bench.XXXXXX")
echo "bench/hbase.sh: logs in $out" >&2

testenv/up.sh hbase >&2 || { echo "bench/hbase.sh: HBase did not start" >&2; exit 1; }
gobench=${GOBENCH:-}
if [ -z "$gobench" ]; then
	gobench=$out/gobench
	go build -o "$gobench" ./cmd/gobench || exit 1
fi
tgo=gobench_bench_go
tjava=gobench_bench_java
common=(-p "recordcount=$records" -p "operationcount=$ops")

# metric FILE OP FIELD: the value of "[OP], FIELD, value" in a YCSB-format report.
metric() { awk -F', ' -v op="[$2]" -v f="$3" '$1 == op && $2 == f { print $3; exit }' "$1"; }

# report NAME GOLOG JAVALOG: one line per operation found in either report.
report() {
	local name=$1 g=$2 j=$3
	local gt jt
	gt=$(metric "$g" OVERALL 'Throughput(ops/sec)')
	jt=$(metric "$j" OVERALL 'Throughput(ops/sec)')
	awk -v n="$name" -v g="${gt:-0}" -v j="${jt:-0}" 'BEGIN {
		printf "%-14s %-22s %12.0f %12.0f %7.2fx\n", n, "throughput ops/s", g, j, (j > 0 ? g / j : 0) }'
	if [ -f "$g.time" ] && [ -f "$j.time" ]; then
		awk -v n="$name" -v ops="$ops" -v gt="$(cat "$g.time")" -v jt="$(cat "$j.time")" 'BEGIN {
			split(gt, a, " "); split(jt, b, " ")
			gc = (a[1] + a[2]) * 100000 / ops; jc = (b[1] + b[2]) * 100000 / ops
			printf "%-14s %-22s %12.2f %12.2f %7.2fx\n", n, "CPU s per 100k ops", gc, jc, (jc > 0 ? gc / jc : 0) }'
	fi
	for op in INSERT READ UPDATE SCAN READ-MODIFY-WRITE; do
		local ga ja gp jp
		ga=$(metric "$g" "$op" 'AverageLatency(us)')
		ja=$(metric "$j" "$op" 'AverageLatency(us)')
		[ -n "$ga$ja" ] || continue
		gp=$(metric "$g" "$op" '99thPercentileLatency(us)')
		jp=$(metric "$j" "$op" '99thPercentileLatency(us)')
		awk -v n="$name" -v op="$op" -v ga="${ga:-0}" -v ja="${ja:-0}" -v gp="${gp:-0}" -v jp="${jp:-0}" 'BEGIN {
			printf "%-14s %-22s %12.0f %12.0f %7.2fx\n", n, op " mean us", ga, ja, (ga > 0 ? ja / ga : 0)
			printf "%-14s %-22s %12.0f %12.0f %7.2fx\n", n, op " p99 us", gp, jp, (gp > 0 ? jp / gp : 0) }'
	done
}

fail() { echo "bench/hbase.sh: $1 failed; see $2" >&2; exit 1; }

# timed OUT CMD...: runs CMD with stdout to OUT, its user and system CPU seconds in OUT.time.
timed() { local o=$1; shift; /usr/bin/time -f '%U %S' -o "$o.time" "$@" >"$o"; }

printf "%-14s %-22s %12s %12s %8s\n" workload metric gobench java ratio
# Load: each side into its own freshly created, pre-split table.
timed "$out/load.go" "$gobench" load -db hbase -P workloads/workloada "${common[@]}" -threads 16 -p "table=$tgo" \
	-p hbase.droptable=true -p hbase.createtable=true -p "hbase.splits=$splits" 2>"$out/load.go.err" ||
	fail "gobench load" "$out/load.go.err"
testenv/hbase-create-table.sh "$tjava" family "$splits" --drop >"$out/create.java" 2>&1 ||
	fail "Java table creation" "$out/create.java"
timed "$out/load.java" testenv/ycsb.sh load -P workloads/workloada "${common[@]}" -threads 16 -p "table=$tjava" 2>"$out/load.java.err" ||
	fail "Java YCSB load" "$out/load.java.err"
report "load/16" "$out/load.go" "$out/load.java"

for w in "${workloads[@]}"; do
	for t in $threads_list; do
		timed "$out/$w.$t.go" "$gobench" run -db hbase -P "workloads/$w" "${common[@]}" -threads "$t" -p "table=$tgo" 2>"$out/$w.$t.go.err" ||
			fail "gobench run $w" "$out/$w.$t.go.err"
		timed "$out/$w.$t.java" testenv/ycsb.sh run -P "workloads/$w" "${common[@]}" -threads "$t" -p "table=$tjava" 2>"$out/$w.$t.java.err" ||
			fail "Java YCSB run $w" "$out/$w.$t.java.err"
		report "${w#workload}/$t" "$out/$w.$t.go" "$out/$w.$t.java"
	done
done
echo "ratios: throughput gobench/java; latency java/gobench (above 1 = gobench faster); CPU gobench/java (below 1 = gobench cheaper)"
