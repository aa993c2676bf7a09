#!/usr/bin/env bash
# make-fixtures.sh: makes the <name>.out fixtures of the TimeSeriesWorkload
# test from Java YCSB 0.17.0, once, by hand (the test reads the committed
# files; it never runs Java). For each <name>.properties here:
#
#   java -cp <TSDump classes>:<site.ycsb:core:0.17.0 and deps> site.ycsb.Client -load \
#     -db TSDump -p workload=site.ycsb.workloads.TimeSeriesWorkload -P <name>.properties \
#     -threads <its threadcount> | grep -E '^(INSERT|UPDATE|READ|SCAN|DELETE) ' > <name>.out
#
# TSDump.java (here) prints every call with its fields sorted and the
# NumericByteIterator values decoded. The jars come from Maven Central with
# bench/overhead/pom.xml (dependency:copy-dependencies), cached in
# ${GOBENCH_CACHE:-~/.cache/gobench-bench}/ycsb-0.17.0/lib as bench/overhead.sh does.
# Needs java and javac 17, mvn.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
CACHE=${GOBENCH_CACHE:-$HOME/.cache/gobench-bench}
LIB=$CACHE/ycsb-0.17.0/lib
if ! ls "$LIB"/core-0.17.0.jar >/dev/null 2>&1; then
	mkdir -p "$CACHE"
	mvn -B -q -f "$ROOT/bench/overhead/pom.xml" -Dycsb.version=0.17.0 dependency:copy-dependencies \
		-DincludeScope=runtime -DoutputDirectory="$LIB"
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
javac -nowarn -d "$WORK" -cp "$LIB/*" "$HERE/TSDump.java"
for p in "$HERE"/*.properties; do
	name=$(basename "$p" .properties)
	threads=$(sed -n 's/^threadcount=//p' "$p")
	java -cp "$WORK:$LIB/*" site.ycsb.Client -load -db TSDump \
		-p workload=site.ycsb.workloads.TimeSeriesWorkload -P "$p" -threads "${threads:-1}" 2>"$WORK/$name.err" |
		grep -E '^(INSERT|UPDATE|READ|SCAN|DELETE) ' >"$HERE/$name.out" || { cat "$WORK/$name.err" >&2; exit 1; }
	echo "$name.out: $(wc -l <"$HERE/$name.out") lines ($(java -version 2>&1 | head -n 1))"
done
