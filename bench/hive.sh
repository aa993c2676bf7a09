#!/usr/bin/env bash
# bench/hive.sh: gobench hive against Hive's own client, beeline, on the same testenv
# HiveServer2, the same tables and the field report's five queries: per query the median
# of ROUNDS executions on each side, and gobench / beeline. The client's overhead should
# be negligible: within 2 % of beeline's median.
#
# On a shared machine the server's own time varies far more than 2 % from one execution to
# the next, so the script also measures what each client adds: for every execution, the
# client's time minus HiveServer2's compile + execute time for that statement (its
# "Completed compiling/executing command(queryId=...); Time taken" log lines), i.e. the
# round trips, the waiting for the end of the statement, the fetch and the close. Those
# overheads, not the noisy totals, show whether gobench's client costs more than beeline's.
#
# Each round runs the five queries once through gobench (one session, -repeat 1) and once
# through beeline (one beeline process, one session, -f), alternating which goes first.
# gobench's time is its measurement (execute to last row fetched and the operation closed,
# the exact sample); beeline's is the time it prints itself ("N rows selected (S seconds)":
# execute to last row printed), so neither includes a JVM or process start. Before the
# rounds, each client runs the queries once unmeasured (HiveServer2's JIT and caches).
#
# Environment: SCALE (bytes or rows per table, default 16MB), ROUNDS (default 5),
# DATABASE (default gobench_bench), GOBENCH (a gobench binary; default: built from
# ./cmd/gobench). Starts HiveServer2 with testenv/up.sh hive if needed. The tables stay
# (the next run with the same SCALE reuses them).
set -u -o pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
scale=${SCALE:-16MB}
rounds=${ROUNDS:-5}
db=${DATABASE:-gobench_bench}
out=$(mktemp -d "${TMPDIR:-/tmp}/gobench-hive-bench.XXXXXX")
echo "bench/hive.sh: logs in $out" >&2

testenv/up.sh hive >&2 || { echo "bench/hive.sh: HiveServer2 did not start" >&2; exit 1; }
. testenv/lib.sh
te_check_java
te_classpath hive-beeline beeline.version "3.1.3"
beeline_cp=$TE_CP
gobench=${GOBENCH:-}
if [ -z "$gobench" ]; then
	gobench=$out/gobench
	go build -o "$gobench" ./cmd/gobench || exit 1
fi
fail() { echo "bench/hive.sh: $1 failed; see $2" >&2; exit 1; }
srvlog=$TE_RUN/hive/server.out
size() { stat -c %s "$srvlog"; }

# server_ms FROM TO OUT: HiveServer2's compile + execute time (ms) of each SELECT logged
# between byte offsets FROM and TO of its log, in order.
server_ms() {
	tail -c +$(($1 + 1)) "$srvlog" | head -c $(($2 - $1)) | awk '
		function qid(s) { sub(/.*queryId=/, "", s); sub(/\).*/, "", s); return s }
		function taken(s) { sub(/.*Time taken: /, "", s); sub(/ seconds.*/, "", s); return s + 0 }
		/^\[.*INFO Compiling command\(queryId=/ { q = qid($0); sql = $0; sub(/^[^)]*\): /, "", sql)
			if (sql ~ /^SELECT/) order[n++] = q }
		/^\[.*INFO Completed compiling command\(queryId=/ { c[qid($0)] = taken($0) }
		/^\[.*INFO Completed executing command\(queryId=/ { e[qid($0)] = taken($0) }
		END { for (i = 0; i < n; i++) printf "%.1f\n", (c[order[i]] + e[order[i]]) * 1000 }' >"$3"
}

queries=(SCAN AGGREGATE JOIN JOIN3 JOIN-AGAIN)
# The five statements, as gobench runs them, for beeline's -f.
"$gobench" hive -sql >"$out/queries.sql" 2>"$out/sql.err" || fail "gobench hive -sql" "$out/sql.err"

# Load (or reuse) the tables, checking the answers once.
"$gobench" hive -scale "$scale" -data "$out/data" -database "$db" -queries all -verify \
	>"$out/load.out" 2>"$out/load.err" || fail "gobench hive (load and verify)" "$out/load.err"

# go_round N: gobench's five times (ms) in query order, one per line.
go_round() {
	local from=$(size)
	"$gobench" hive -scale "$scale" -load never -database "$db" -queries all -repeat 1 \
		>"$out/go.$1.out" 2>"$out/go.$1.err" || fail "gobench hive round $1" "$out/go.$1.err"
	local q
	for q in "${queries[@]}"; do
		awk -v q="$q" '$1 == q && $2 ~ /^[0-9]+$/ { print $4; exit }' "$out/go.$1.out"
	done >"$out/go.$1.ms"
	server_ms "$from" "$(size)" "$out/go.$1.srv"
}

# beeline_round N: beeline's five times (ms), from its "(S seconds)" lines.
beeline_round() {
	local from=$(size)
	HOME=$out "$TE_JAVA" -Xmx512m -Djava.io.tmpdir="$out" -Dlog4j2.level=WARN -cp "$beeline_cp" \
		org.apache.hive.beeline.BeeLine -u "jdbc:hive2://127.0.0.1:10000/$db" -n gobench \
		--outputformat=tsv2 --showHeader=false -f "$out/queries.sql" \
		>"$out/beeline.$1.out" 2>"$out/beeline.$1.err" || fail "beeline round $1" "$out/beeline.$1.err"
	sed -n 's/.*rows\{0,1\} selected (\([0-9.]*\) seconds).*/\1/p' "$out/beeline.$1.err" |
		awk '{ printf "%.1f\n", $1 * 1000 }' >"$out/beeline.$1.ms"
	[ "$(wc -l <"$out/beeline.$1.ms")" -eq ${#queries[@]} ] || fail "beeline round $1 (not 5 timings)" "$out/beeline.$1.err"
	server_ms "$from" "$(size)" "$out/beeline.$1.srv"
}

echo "bench/hive.sh: warm-up (both clients once, unmeasured)" >&2
go_round warm
beeline_round warm
for r in $(seq 1 "$rounds"); do
	echo "bench/hive.sh: round $r of $rounds" >&2
	if [ $((r % 2)) = 1 ]; then
		go_round "$r"
		beeline_round "$r"
	else
		beeline_round "$r"
		go_round "$r"
	fi
done

# median FILE...: per line number across the files, the median.
median() {
	paste "$@" | awk '{ n = split($0, v, "\t"); for (i = 1; i <= n; i++) a[i] = v[i] + 0
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		printf "%.1f\n", (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) }'
}
# overhead CLIENT N: client time minus server time, per query, of round N.
overhead() {
	[ "$(wc -l <"$out/$1.$2.srv")" -eq ${#queries[@]} ] || fail "$1 round $2: server times (not 5 SELECTs in the log)" "$out/$1.$2.srv"
	paste "$out/$1.$2.ms" "$out/$1.$2.srv" | awk '{ printf "%.1f\n", $1 - $2 }' >"$out/$1.$2.over"
}
gofiles=() blfiles=() goover=() blover=()
for r in $(seq 1 "$rounds"); do
	overhead go "$r"
	overhead beeline "$r"
	gofiles+=("$out/go.$r.ms")
	blfiles+=("$out/beeline.$r.ms")
	goover+=("$out/go.$r.over")
	blover+=("$out/beeline.$r.over")
done
median "${gofiles[@]}" >"$out/go.median"
median "${blfiles[@]}" >"$out/beeline.median"
median "${goover[@]}" >"$out/go.over.median"
median "${blover[@]}" >"$out/beeline.over.median"
version=$(tr '\0' '\n' <"/proc/$(cat "$TE_RUN/hive/pid")/cmdline" 2>/dev/null | grep -o 'hive-service-[0-9][0-9.]*[0-9]' | head -1)
echo "HiveServer2 (${version:-hive-service ?}) on 127.0.0.1:10000 (testenv), scale $scale per table, $rounds rounds; medians in ms"
echo "(client overhead = the client's time minus HiveServer2's compile + execute time of the same execution)"
printf "%-11s %10s %10s %8s %8s   %16s %16s\n" query gobench beeline ratio diff "gobench overhead" "beeline overhead"
paste <(printf '%s\n' "${queries[@]}") "$out/go.median" "$out/beeline.median" "$out/go.over.median" "$out/beeline.over.median" |
	awk '{ r = ($3 > 0 ? $2 / $3 : 0); printf "%-11s %10.1f %10.1f %7.3fx %+7.1f%%   %16.1f %16.1f\n", $1, $2, $3, r, (r - 1) * 100, $4, $5
		g += $2; b += $3; go += $4; bo += $5 }
		END { r = (b > 0 ? g / b : 0); printf "%-11s %10.1f %10.1f %7.3fx %+7.1f%%   %16.1f %16.1f\n", "all", g, b, r, (r - 1) * 100, go, bo }'
echo "per-round times: $out/{go,beeline}.N.{ms,srv,over}"
