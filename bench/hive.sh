#!/usr/bin/env bash
# bench/hive.sh: gobench hive against Hive's own client, beeline, on the same testenv
# HiveServer2, the same tables and the field report's five queries: per query the median
# of ROUNDS executions on each side, and gobench / beeline. The client's overhead should
# be negligible: within 2 % of beeline's median.
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

queries=(SCAN AGGREGATE JOIN JOIN3 JOIN-AGAIN)
# The five statements, as gobench runs them, for beeline's -f.
"$gobench" hive -sql >"$out/queries.sql" 2>"$out/sql.err" || fail "gobench hive -sql" "$out/sql.err"

# Load (or reuse) the tables, checking the answers once.
"$gobench" hive -scale "$scale" -data "$out/data" -database "$db" -queries all -verify \
	>"$out/load.out" 2>"$out/load.err" || fail "gobench hive (load and verify)" "$out/load.err"

# go_round N: gobench's five times (ms) in query order, one per line.
go_round() {
	"$gobench" hive -scale "$scale" -load never -database "$db" -queries all -repeat 1 \
		>"$out/go.$1.out" 2>"$out/go.$1.err" || fail "gobench hive round $1" "$out/go.$1.err"
	local q
	for q in "${queries[@]}"; do
		awk -v q="$q" '$1 == q && $2 ~ /^[0-9]+$/ { print $4; exit }' "$out/go.$1.out"
	done >"$out/go.$1.ms"
}

# beeline_round N: beeline's five times (ms), from its "(S seconds)" lines.
beeline_round() {
	HOME=$out "$TE_JAVA" -Xmx512m -Djava.io.tmpdir="$out" -Dlog4j2.level=WARN -cp "$beeline_cp" \
		org.apache.hive.beeline.BeeLine -u "jdbc:hive2://127.0.0.1:10000/$db" -n gobench \
		--outputformat=tsv2 --showHeader=false -f "$out/queries.sql" \
		>"$out/beeline.$1.out" 2>"$out/beeline.$1.err" || fail "beeline round $1" "$out/beeline.$1.err"
	sed -n 's/.*rows\{0,1\} selected (\([0-9.]*\) seconds).*/\1/p' "$out/beeline.$1.err" |
		awk '{ printf "%.1f\n", $1 * 1000 }' >"$out/beeline.$1.ms"
	[ "$(wc -l <"$out/beeline.$1.ms")" -eq ${#queries[@]} ] || fail "beeline round $1 (not 5 timings)" "$out/beeline.$1.err"
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
gofiles=() blfiles=()
for r in $(seq 1 "$rounds"); do
	gofiles+=("$out/go.$r.ms")
	blfiles+=("$out/beeline.$r.ms")
done
median "${gofiles[@]}" >"$out/go.median"
median "${blfiles[@]}" >"$out/beeline.median"
echo "Hive $(sed -n 's/.*hive \([0-9.]*\): ready.*/\1/p' "$TE_RUN/hive/server.out" 2>/dev/null | tail -1)HiveServer2 on 127.0.0.1:10000, scale $scale per table, $rounds rounds, median per query (ms)"
printf "%-11s %12s %12s %9s %9s\n" query gobench beeline ratio diff
paste <(printf '%s\n' "${queries[@]}") "$out/go.median" "$out/beeline.median" |
	awk '{ r = ($3 > 0 ? $2 / $3 : 0); printf "%-11s %12.1f %12.1f %8.3fx %+8.1f%%\n", $1, $2, $3, r, (r - 1) * 100
		g += $2; b += $3 }
		END { r = (b > 0 ? g / b : 0); printf "%-11s %12.1f %12.1f %8.3fx %+8.1f%%\n", "all", g, b, r, (r - 1) * 100 }'
echo "per-round times: $out/{go,beeline}.N.ms"
