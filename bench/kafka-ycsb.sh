#!/usr/bin/env bash
# bench/kafka-ycsb.sh [-r RECORDS] [-t THREADS] [-s SECONDS] [-B BASE_REV] [-b BROKER]
# Workload E (95 % scans, 5 % inserts) on -db kafka, before and after the kafka driver's
# redesign, in one run on one machine: builds gobench at BASE_REV (default 0a85171, the
# last kafka-go driver) and at the work tree, loads RECORDS records once (with the work
# tree's binary: the record format is the same), then runs workload E for SECONDS with
# each binary on the same topic: the baseline, the new driver with kafka.reads=log (each
# record fetched from the log) and with kafka.reads=state (the default). Scan throughput
# excludes the baseline's index build, which it does inside the run (its note gives the
# time). Defaults: -r 1000000 -t 8 -s 30 -b 127.0.0.1:9092 (run it under
# flock /tmp/gobench-realservers.lock on the shared broker).
set -u -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
records=1000000 threads=8 secs=30 base=0a85171 broker=127.0.0.1:9092
while getopts "r:t:s:B:b:" o; do
	case $o in
	r) records=$OPTARG ;; t) threads=$OPTARG ;; s) secs=$OPTARG ;; B) base=$OPTARG ;; b) broker=$OPTARG ;;
	*) echo "usage: bench/kafka-ycsb.sh [-r RECORDS] [-t THREADS] [-s SECONDS] [-B BASE_REV] [-b BROKER]" >&2; exit 2 ;;
	esac
done
tmp=$(mktemp -d /tmp/gobench-bench-kycsb.XXXXXX)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp/base" "$base" >/dev/null 2>&1 || { echo "cannot check out $base" >&2; exit 1; }
(cd "$tmp/base" && go build -o "$tmp/gobench-base" ./cmd/gobench) || exit 1
go build -o "$tmp/gobench" ./cmd/gobench || exit 1
table=gobench_bench_e_$(date +%s)
common=(-db kafka -P workloads/workloade -p "kafka.brokers=$broker" -p "table=$table" -p "recordcount=$records")
echo "== load $records records into $table" >&2
"$tmp/gobench" load "${common[@]}" -threads 16 >"$tmp/load" 2>&1 || { tail "$tmp/load" >&2; exit 1; }
run() { # run NAME BINARY ARGS...: workload E for $secs s
	local name=$1 bin=$2
	shift 2
	echo "== $name" >&2
	"$bin" run "${common[@]}" -p operationcount=0 -p "maxexecutiontime=$secs" -threads "$threads" "$@" >"$tmp/$name" 2>&1 ||
		{ tail "$tmp/$name" >&2; exit 1; }
	grep -E 'index|\[SCAN\], (Operations|50thP|99thP)' "$tmp/$name" >&2
}
run base "$tmp/gobench-base"
run log "$tmp/gobench" -p kafka.reads=log
run state "$tmp/gobench" -p kafka.reads=state
# rate NAME: scans per second of the run, less the index build when it was inside the run.
rate() {
	awk '/^\[OVERALL\], RunTime\(ms\)/ { rt = $3 / 1000 }
		/^\[SCAN\], Operations/ { n = $3 }
		/built the offset index .* that time is inside the run/ { for (i = 1; i <= NF; i++) if ($i == "in") b = $(i + 1) }
		END { sub(/s;?$/, "", b); if (b ~ /ms$/) { sub(/ms$/, "", b); b /= 1000 } printf "%.1f", n / (rt - b) }' "$tmp/$1"
}
b=$(rate base) l=$(rate log) s=$(rate state)
echo
echo "workload E, $records records, $threads threads, $secs s, broker $broker: scans/s (ratio to $base)"
printf '%-28s %10s %7s\n' driver scans/s ratio
printf '%-28s %10s %7s\n' "kafka-go ($base)" "$b" 1.00
printf '%-28s %10s %7s\n' "franz-go, kafka.reads=log" "$l" "$(awk -v a="$l" -v b="$b" 'BEGIN { printf "%.1f", a / b }')"
printf '%-28s %10s %7s\n' "franz-go, kafka.reads=state" "$s" "$(awk -v a="$s" -v b="$b" 'BEGIN { printf "%.1f", a / b }')"
