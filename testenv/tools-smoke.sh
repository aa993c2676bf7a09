#!/usr/bin/env bash
# testenv/tools-smoke.sh [kafka] [hdfs] [hbase]: run each Java comparison tool once, tiny,
# against the running testenv servers, and check that it reports what bench/ parses.
# Uses its own topic, table and TestDFSIO directory, and removes them. Prints one line per
# tool and "N passed, N failed"; exit 1 if any failed. Takes about a minute per server.
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(kafka hdfs hbase)
id=smoke$$
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0

# check NAME PATTERN CMD...: run CMD, require exit 0 and PATTERN (grep -E) in its output.
check() {
	local name=$1 pat=$2 t0=$SECONDS
	shift 2
	if "$@" >"$out/$name.log" 2>&1 && grep -Eq -- "$pat" "$out/$name.log"; then
		printf 'ok    %-18s %3d s  %s\n' "$name" $((SECONDS - t0)) "$(grep -E -m1 -- "$pat" "$out/$name.log" | cut -c1-90)"
		pass=$((pass + 1))
	else
		printf 'FAIL  %-18s %3d s  (want /%s/); last lines:\n' "$name" $((SECONDS - t0)) "$pat"
		tail -n 15 "$out/$name.log" | cut -c1-200 | sed 's/^/      /'
		fail=$((fail + 1))
	fi
}

for n in "${names[@]}"; do
	case $n in
	kafka)
		check kafka-topic "Created topic" "$TE_DIR/kafka-perf.sh" topics --create --topic "$id" --partitions 2 --replication-factor 1
		check kafka-producer "records sent, .* records/sec" "$TE_DIR/kafka-perf.sh" producer --topic "$id" \
			--num-records 20000 --record-size 100 --throughput -1 --command-property acks=1
		check kafka-consumer "^[0-9-]+ [0-9:]+, [0-9-]+ [0-9:]+, [0-9.]+, [0-9.]+, 20000," "$TE_DIR/kafka-perf.sh" consumer \
			--topic "$id" --num-records 20000 --timeout 60000
		"$TE_DIR/kafka-perf.sh" topics --delete --topic "$id" >/dev/null 2>&1
		;;
	hdfs)
		check dfsio-write "Throughput mb/sec" "$TE_DIR/dfsio.sh" "-Dtest.build.data=/benchmarks/$id" -write -nrFiles 2 -size 4MB \
			-resFile "$out/dfsio.res"
		check dfsio-read "Throughput mb/sec" "$TE_DIR/dfsio.sh" "-Dtest.build.data=/benchmarks/$id" -read -nrFiles 2 -size 4MB \
			-resFile "$out/dfsio.res"
		check dfsio-clean "Cleaning up test files" "$TE_DIR/dfsio.sh" "-Dtest.build.data=/benchmarks/$id" -clean
		;;
	hbase)
		check hbase-create-table "created table $id family family with 5 regions" "$TE_DIR/hbase-create-table.sh" "$id" family 4 --drop
		check ycsb-load '^\[INSERT\], Return=OK, 2000$' "$TE_DIR/ycsb.sh" load -p table="$id" -p recordcount=2000 -threads 2
		check ycsb-run '^\[READ\], Return=OK, ' "$TE_DIR/ycsb.sh" run -p table="$id" -p recordcount=2000 \
			-p operationcount=2000 -p readproportion=0.5 -p updateproportion=0.5 -p requestdistribution=zipfian -threads 2
		check hbase-delete-table "dropped table $id" "$TE_DIR/hbase-create-table.sh" "$id" family 0 --delete
		;;
	*) te_die "unknown server \"$n\" (allowed: kafka, hdfs, hbase)" ;;
	esac
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
