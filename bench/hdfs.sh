#!/usr/bin/env bash
# bench/hdfs.sh [-n NRFILES] [-s SIZE] [-b BUFFERSIZE] [-t "write read ..."]
# gobench dfsio against Hadoop's TestDFSIO on the same testenv HDFS (127.0.0.1:9000), the
# same files and sizes, in one run: for each test, TestDFSIO first (LocalJobRunner with
# mapreduce.local.map.tasks.maximum=NRFILES, so its maps run at once, as gobench's
# workers do), then gobench on the files TestDFSIO just wrote (and the other way round
# for the reads; for truncate gobench first, then the files grow back by what it cut, then
# TestDFSIO cuts the same). Prints both summaries and, per test, the ratios gobench/TestDFSIO of
# "Throughput mb/sec" (TestDFSIO's per-file formula), of the aggregate throughput
# (MB / "Test exec time") and of the process wall time (JVM start and job set-up
# included for TestDFSIO).
# Defaults: -n 4 -s 64MB -b 1000000 -t "write read random backward skip append truncate" (every
# TestDFSIO test).
set -u -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
nr=4 size=64MB buf=1000000 tests="write read random backward skip append truncate"
while getopts "n:s:b:t:" o; do
	case $o in
	n) nr=$OPTARG ;; s) size=$OPTARG ;; b) buf=$OPTARG ;; t) tests=$OPTARG ;;
	*) echo "usage: bench/hdfs.sh [-n NRFILES] [-s SIZE] [-b BUFFERSIZE] [-t \"write read random backward skip append truncate\"]" >&2; exit 2 ;;
	esac
done
tmp=$(mktemp -d /tmp/gobench-bench-hdfs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
testenv/up.sh hdfs >&2 || exit 1
go build -o "$tmp/gobench" ./cmd/gobench || exit 1
base=/benchmarks/gobench-bench-hdfs

ms() { date +%s%3N; }
# field FILE LABEL: the value of the last "LABEL: value" line of a result file.
field() { grep "$2:" "$1" | tail -1 | sed 's/.*: //'; }
args_of() {
	case $1 in
	write | read | append | truncate) echo "-$1" ;;
	random | backward | skip) echo "-read -$1" ;;
	*) echo "unknown test $1" >&2; exit 2 ;;
	esac
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }

# run_java / run_go: one test ($t, arguments in common) by TestDFSIO / gobench; set jwall /
# gwall (ms).
run_java() {
	echo "== $t: TestDFSIO ${common[*]}" >&2
	local t0
	t0=$(ms)
	DFSIO_JAVA_OPTS=${DFSIO_JAVA_OPTS:--Xmx1g} testenv/dfsio.sh -D "mapreduce.local.map.tasks.maximum=$nr" \
		"${common[@]}" -resFile "$tmp/java.$t.log" >"$tmp/java.$t.out" 2>&1 || { cat "$tmp/java.$t.out" >&2; return 1; }
	jwall=$(($(ms) - t0))
}
run_go() {
	echo "== $t: gobench dfsio ${common[*]}" >&2
	local t0
	t0=$(ms)
	"$tmp/gobench" dfsio "${common[@]}" -resFile "$tmp/go.$t.log" >"$tmp/go.$t.report" 2>"$tmp/go.$t.out" || { cat "$tmp/go.$t.out" >&2; return 1; }
	gwall=$(($(ms) - t0))
}

printf '%-9s %12s %12s %7s   %12s %12s %7s   %9s %9s %7s\n' test "java mb/s" "go mb/s" ratio "java aggr" "go aggr" ratio "java s" "go s" ratio >"$tmp/table"
for t in $tests; do
	# shellcheck disable=SC2046
	set -- $(args_of "$t")
	common=(-D "test.build.data=$base" "$@" -nrFiles "$nr" -size "$size" -bufferSize "$buf")
	if [ "$t" = truncate ]; then
		# TestDFSIO's truncate would leave gobench nothing to cut: gobench
		# first, then the files grow back by what it cut (untimed append),
		# then TestDFSIO cuts the same.
		run_go || exit 1
		per=$(awk -v m="$(field "$tmp/go.$t.log" "Total MBytes processed")" -v n="$nr" 'BEGIN { printf "%d", m / n }')
		if [ "$per" -gt 0 ]; then
			"$tmp/gobench" dfsio -D "test.build.data=$base" -append -nrFiles "$nr" -size "${per}MB" -bufferSize "$buf" \
				-resFile "$tmp/regrow.log" >/dev/null 2>&1 || { echo "regrowing the files for TestDFSIO's truncate failed" >&2; exit 1; }
		fi
		run_java || exit 1
	else
		run_java || exit 1
		run_go || exit 1
	fi
	cat "$tmp/java.$t.log" "$tmp/go.$t.log"
	grep 'gobench:' "$tmp/go.$t.out" | sed 's/.*TestDFSIO: //'
	echo
	jt=$(field "$tmp/java.$t.log" "Throughput mb/sec") gt=$(field "$tmp/go.$t.log" "Throughput mb/sec")
	jmb=$(field "$tmp/java.$t.log" "Total MBytes processed") gmb=$(field "$tmp/go.$t.log" "Total MBytes processed")
	jx=$(field "$tmp/java.$t.log" "Test exec time sec") gx=$(field "$tmp/go.$t.log" "Test exec time sec")
	ja=$(awk -v m="$jmb" -v s="$jx" 'BEGIN { printf "%.2f", (s > 0 ? m / s : 0) }')
	ga=$(awk -v m="$gmb" -v s="$gx" 'BEGIN { printf "%.2f", (s > 0 ? m / s : 0) }')
	printf '%-9s %12s %12s %7s   %12s %12s %7s   %9.2f %9.2f %7s\n' "$t" "$jt" "$gt" "$(ratio "$gt" "$jt")" \
		"$ja" "$ga" "$(ratio "$ga" "$ja")" "$(awk -v x="$jwall" 'BEGIN{print x/1000}')" \
		"$(awk -v x="$gwall" 'BEGIN{print x/1000}')" "$(ratio "$gwall" "$jwall")" >>"$tmp/table"
done
"$tmp/gobench" dfsio -D "test.build.data=$base" -clean >/dev/null 2>&1
echo "gobench/TestDFSIO on hdfs://127.0.0.1:9000, $nr files of $size, buffer $buf bytes"
echo "(mb/s: TestDFSIO's \"Throughput mb/sec\"; aggr: MB / \"Test exec time\"; s: process wall time)"
cat "$tmp/table"
