#!/usr/bin/env bash
# bench/kafka.sh [-n RECORDS_100B] [-k RECORDS_1KB] [-N RECORDS_300KB] [-p "k=v ..."] [-b BROKER]
# gobench producer-perf / consumer-perf against Kafka's ProducerPerformance and
# ConsumerPerformance (testenv/kafka-perf.sh, same Kafka version as the broker) on the
# testenv Kafka at 127.0.0.1:9092 (or -b host:port, e.g. a private broker started with
# GOBENCH_RUN=... GOBENCH_KAFKA_PORT=... testenv/up.sh kafka), in one run, for 100 B, 1 KB
# and 300 KB records, idempotence on in both producers (Java's default since 3.0):
#   1. unthrottled: Java producer, then gobench producer, each to its own new topic
#      (same producer properties); MB/s ratio gobench/Java;
#   2. throttled at half Java's unthrottled rate (same --throughput for both), where
#      latency is the client's and not queueing in buffer.memory: p99 ratio Java/gobench
#      (>= 1 means gobench's p99 is as low or lower; integer ms as both tools print, floored at 1);
#   3. consumers: Java's, then gobench's, each in a new group over the topic Java produced
#      in step 1; MB/s ratio gobench/Java (MB.sec and fetch.MB.sec, as printed).
# Each step also runs bench/kafka-franz (the same loops written directly on
# github.com/twmb/franz-go, a separate module), the floor of what the driver, on franz-go
# too, adds. The column is "n/a" when it cannot be built (no module proxy).
# Defaults: -n 2000000 -k 500000 -N 2000
#   -p "acks=all enable.idempotence=true linger.ms=5 batch.size=16384" (Java 4.x defaults).
# Run it under flock /tmp/gobench-realservers.lock when it uses the shared broker.
#
# bench/kafka.sh --secure [-n RECORDS] [-s SIZE] [USER-MODE...]: the secured Kafka
# (testenv/up.sh --secure kafka, SASL_SSL): per client file
# $GOBENCH_RUN/secure/conf/kafka-USER-MODE.properties (default jason-scram jason-gssapi),
# Java's ProducerPerformance (testenv/kafka-perf.sh --secure, --command-config FILE) and
# gobench producer-perf (--producer.config FILE) each write RECORDS (default 500000) of
# SIZE bytes (default 100) to their own topic, then ConsumerPerformance and consumer-perf
# each read Java's topic; MB/s ratio gobench/Java. The same file for both tools, as a
# user runs them. Run it under flock /tmp/gobench-secure.lock.
set -u -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
if [ "${1:-}" = --secure ]; then
	shift
	sn=500000 ssize=100
	while getopts "n:s:" o; do
		case $o in
		n) sn=$OPTARG ;; s) ssize=$OPTARG ;;
		*) echo "usage: bench/kafka.sh --secure [-n RECORDS] [-s SIZE] [USER-MODE...]" >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	modes=("$@")
	[ ${#modes[@]} -eq 0 ] && modes=(jason-scram jason-gssapi)
	conf=${GOBENCH_RUN:-${TMPDIR:-/tmp}/gobench-testenv}/secure/conf
	export KRB5_CONFIG=$conf/../krb5.conf # GSSAPI: as eval "$(testenv/secure.sh env)" sets it
	tmp=$(mktemp -d /tmp/gobench-bench-kafka.XXXXXX)
	trap 'rm -rf "$tmp"' EXIT
	testenv/up.sh --secure kafka >&2 || exit 1
	go build -o "$tmp/gobench" ./cmd/gobench || exit 1
	srun() { # srun NAME CMD...: stdout+stderr to $tmp/NAME; dies on failure
		local name=$1
		shift
		echo "== $name: $*" >&2
		"$@" >"$tmp/$name" 2>&1 || { cat "$tmp/$name" >&2; exit 1; }
	}
	fin() { grep -E '^[0-9]+ records sent, .* 99\.9th\.$' "$1" | tail -1 | awk '{ gsub(/[(),]/, ""); print $6, $16, $22 }'; }
	row() { grep -E '^[0-9]{4}-[0-9][0-9]-[0-9][0-9] ' "$1" | tail -1 | awk -F', ' '{ print $4 }'; }
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }
	id=$(date +%s)
	printf '%-16s %-22s %10s %10s %6s\n' client measure java gobench ratio >"$tmp/table"
	for m in "${modes[@]}"; do
		f=$conf/kafka-$m.properties
		[ -f "$f" ] || { echo "no client file $f" >&2; exit 1; }
		jt=gobench-bench-sec-java-$m-$id gt=gobench-bench-sec-go-$m-$id
		for t in "$jt" "$gt"; do srun "topic.$t" testenv/secure.sh kafka create "$t" 2; done
		common=(--num-records "$sn" --record-size "$ssize" --throughput -1)
		srun "jprod.$m" testenv/kafka-perf.sh --secure "$m" producer --topic "$jt" "${common[@]}" --command-property acks=all
		srun "gprod.$m" "$tmp/gobench" producer-perf --topic "$gt" "${common[@]}" --producer.config "$f" --producer-props acks=all
		read -r jmb jp50 jp99 <<<"$(fin "$tmp/jprod.$m")"
		read -r gmb gp50 gp99 <<<"$(fin "$tmp/gprod.$m")"
		printf '%-16s %-22s %10s %10s %6s\n' "$m" "produce MB/s" "$jmb" "$gmb" "$(ratio "$gmb" "$jmb")" >>"$tmp/table"
		printf '%-16s %-22s %10s %10s %6s\n' "$m" "produce p50/p99 ms" "$jp50/$jp99" "$gp50/$gp99" "" >>"$tmp/table"
		srun "jcons.$m" testenv/kafka-perf.sh --secure "$m" consumer --topic "$jt" --num-records "$sn" --group "$jt-j" --timeout 60000
		srun "gcons.$m" "$tmp/gobench" consumer-perf --topic "$jt" --messages "$sn" --group "$jt-g" --consumer.config "$f" --timeout 60000
		jc=$(row "$tmp/jcons.$m") gc=$(row "$tmp/gcons.$m")
		printf '%-16s %-22s %10s %10s %6s\n' "$m" "consume MB.sec" "$jc" "$gc" "$(ratio "$gc" "$jc")" >>"$tmp/table"
		for t in "$jt" "$gt"; do testenv/secure.sh kafka delete "$t" >/dev/null 2>&1; done
	done
	echo
	echo "gobench and Kafka's perf tools on the secured Kafka (SASL_SSL), one client file each; $sn records of $ssize B, acks=all"
	cat "$tmp/table"
	exit 0
fi
n100=2000000 n1k=500000 n300=2000 props="acks=all enable.idempotence=true linger.ms=5 batch.size=16384" broker=127.0.0.1:9092
while getopts "n:k:N:p:b:" o; do
	case $o in
	n) n100=$OPTARG ;; k) n1k=$OPTARG ;; N) n300=$OPTARG ;; p) props=$OPTARG ;; b) broker=$OPTARG ;;
	*) echo "usage: bench/kafka.sh [-n RECORDS_100B] [-k RECORDS_1KB] [-N RECORDS_300KB] [-p \"k=v ...\"] [-b BROKER]" >&2; exit 2 ;;
	esac
done
tmp=$(mktemp -d /tmp/gobench-bench-kafka.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
[ "$broker" = 127.0.0.1:9092 ] && { testenv/up.sh kafka >&2 || exit 1; }
go build -o "$tmp/gobench" ./cmd/gobench || exit 1
franz=$tmp/kafka-franz
(cd bench/kafka-franz && go build -o "$franz" .) || { echo "bench/kafka-franz does not build: franz-go column n/a" >&2; franz=""; }
id=$(date +%s)
# shellcheck disable=SC2206
pp=($props)

# fin FILE: the producer's final line; fields: 1 records, 4 records/sec, 6 MB/sec, 16 p50 ms, 22 p99 ms.
fin() { grep -E '^[0-9]+ records sent, .* 99\.9th\.$' "$1" | tail -1; }
col() { echo "$2" | awk -v c="$1" '{ gsub(/[(),]/, ""); print $c }'; }
# row FILE: the consumer's summary row; fields (comma-separated): 4 MB.sec, 10 fetch.MB.sec.
row() { grep -E '^[0-9]{4}-[0-9][0-9]-[0-9][0-9] ' "$1" | tail -1; }
rcol() { echo "$2" | awk -F', ' -v c="$1" '{ print $c }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }
p99ratio() { awk -v j="$1" -v g="$2" 'BEGIN { if (j < 1) j = 1; if (g < 1) g = 1; printf "%.2f", j / g }'; }
# franzprops: the producer properties as kafka-franz flags (acks, linger.ms, batch.size).
franzprops() {
	local kv
	for kv in "${pp[@]}"; do
		case $kv in
		acks=*) echo "-acks ${kv#acks=}" ;; linger.ms=*) echo "-linger ${kv#linger.ms=}ms" ;;
		enable.idempotence=false) echo "-noidem" ;;
		batch.size=*) echo "-batch ${kv#batch.size=}" ;;
		esac
	done
}
run() { # run NAME CMD...: stdout to $tmp/NAME, stderr to $tmp/NAME.err; dies on failure
	local name=$1
	shift
	echo "== $name: $*" >&2
	"$@" >"$tmp/$name" 2>"$tmp/$name.err" || { cat "$tmp/$name" "$tmp/$name.err" >&2; exit 1; }
	grep -vE '^\[' "$tmp/$name" | tail -3 >&2
}

# frun NAME ARGS...: run kafka-franz when it built, else leave an empty output.
frun() {
	local name=$1
	shift
	if [ -n "$franz" ]; then run "$name" "$franz" "$@"; else : >"$tmp/$name"; fi
}
# line LABEL MEASURE JAVA GO FRANZ KIND: one table row; KIND rate (x/java) or lat (java/x).
line() {
	local r1 r2
	if [ "$6" = rate ]; then r1=$(ratio "$4" "$3") r2=$(ratio "$5" "$3"); else r1=$(p99ratio "$3" "$4") r2=$(p99ratio "$3" "$5"); fi
	[ -z "$5" ] && r2=n/a
	printf '%-7s %-22s %10s %10s %6s %10s %6s\n' "$1" "$2" "$3" "$4" "$r1" "${5:-n/a}" "$r2" >>"$table"
}
table=$tmp/table
printf '%-7s %-22s %10s %10s %6s %10s %6s\n' size measure java gobench ratio franz-go ratio >"$table"
for size in 100 1024 307200; do
	case $size in
	100) n=$n100 label=100B ;; 1024) n=$n1k label=1KB ;; *) n=$n300 label=300KB ;;
	esac
	jt=gobench-bench-java-$label-$id gt=gobench-bench-go-$label-$id
	common=(--num-records "$n" --record-size "$size")
	run "jprod.$label" testenv/kafka-perf.sh producer --bootstrap-server "$broker" --topic "$jt" "${common[@]}" --throughput -1 --producer-props "${pp[@]}"
	run "gprod.$label" "$tmp/gobench" producer-perf --bootstrap-server "$broker" --topic "$gt" "${common[@]}" --throughput -1 --producer-props "${pp[@]}"
	frun "fprod.$label" produce -broker "$broker" -topic "$jt-franz" -n "$n" -size "$size" $(franzprops)
	jl=$(fin "$tmp/jprod.$label") gl=$(fin "$tmp/gprod.$label") fl=$(fin "$tmp/fprod.$label")
	jrate=$(col 4 "$jl")
	line "$label" "produce MB/s" "$(col 6 "$jl")" "$(col 6 "$gl")" "$(col 6 "$fl")" rate
	line "$label" "produce p99 ms (-1)" "$(col 22 "$jl")" "$(col 22 "$gl")" "$(col 22 "$fl")" lat

	half=$(awk -v r="$jrate" 'BEGIN { printf "%d", r / 2 }')
	tn=$((n / 4))
	run "jthr.$label" testenv/kafka-perf.sh producer --bootstrap-server "$broker" --topic "$jt-thr" --num-records "$tn" --record-size "$size" --throughput "$half" --producer-props "${pp[@]}"
	run "gthr.$label" "$tmp/gobench" producer-perf --bootstrap-server "$broker" --topic "$gt-thr" --num-records "$tn" --record-size "$size" --throughput "$half" --producer-props "${pp[@]}"
	frun "fthr.$label" produce -broker "$broker" -topic "$jt-franz-thr" -n "$tn" -size "$size" -throughput "$half" $(franzprops)
	jl=$(fin "$tmp/jthr.$label") gl=$(fin "$tmp/gthr.$label") fl=$(fin "$tmp/fthr.$label")
	line "$label" "p99 ms @ $half rec/s" "$(col 22 "$jl")" "$(col 22 "$gl")" "$(col 22 "$fl")" lat
	line "$label" "p50 ms @ $half rec/s" "$(col 16 "$jl")" "$(col 16 "$gl")" "$(col 16 "$fl")" lat

	run "jcons.$label" testenv/kafka-perf.sh consumer --bootstrap-server "$broker" --topic "$jt" --messages "$n" --group "jbench-$label-$id" --timeout 30000
	run "gcons.$label" "$tmp/gobench" consumer-perf --bootstrap-server "$broker" --topic "$jt" --messages "$n" --group "gbench-$label-$id" --timeout 30000
	frun "fcons.$label" consume -broker "$broker" -topic "$jt" -n "$n" -group "fbench-$label-$id"
	jr=$(row "$tmp/jcons.$label") gr=$(row "$tmp/gcons.$label") fr=$(row "$tmp/fcons.$label")
	line "$label" "consume MB.sec" "$(rcol 4 "$jr")" "$(rcol 4 "$gr")" "$(rcol 4 "$fr")" rate
	line "$label" "consume fetch.MB.sec" "$(rcol 9 "$jr")" "$(rcol 9 "$gr")" "$(rcol 9 "$fr")" rate
	for t in "$jt" "$gt" "$jt-thr" "$gt-thr" "$jt-franz" "$jt-franz-thr"; do
		testenv/kafka-perf.sh topics --bootstrap-server "$broker" --delete --topic "$t" >/dev/null 2>&1
	done
done
echo
echo "gobench (kafka driver on franz-go) and bare franz-go against Kafka's perf tools on $broker; producer props: $props"
echo "(ratios: MB/s x/Java; latency Java/x, integer ms floored at 1; >= 1.00 means as good as Java or better)"
cat "$table"
