#!/usr/bin/env bash
# bench/scale.sh: costs that must not grow with the key space (issue 16).
#
# 1. Generator set-up: for recordcount 10^6, 10^9 and 10^12 and every request
#    distribution (uniform, zipfian, latest, hotspot, sequential, exponential),
#    `gobench run -db basic` with a small operationcount, so the process's wall
#    time is start-up plus set-up; plus the load phase (insertorder hashed and
#    ordered). Wall time and peak RSS from /usr/bin/time -v, median of ROUNDS.
# 2. The issue's check: the same runs with operationcount=2000000 and 4 threads
#    (the aim is < 2 s wall for each, at 10^9 and 10^12 records), with their
#    CPU time (user+sys), which a shared machine's load disturbs less.
# 3. `gobench merge` of 10, 100 and 1000 result files, each from a tiny run
#    (`gobench run -db basic ... -p exporter=json -p exportfile=...`, one client
#    of gobench.clients=N): wall time, CPU time and peak RSS of the merge, and
#    the merged document's interval bins. The tiny runs go one after another
#    (nproc at a time), so the clients hardly overlap: the merge's worst case,
#    one wall-clock bin per few clients.
#
# Usage: bench/scale.sh        (from any directory; about 5 minutes)
# Needs: go, /usr/bin/time (Debian package "time"). No server, no download.
# Environment (defaults in brackets):
#   RECORDS ["1000000 1000000000 1000000000000"]
#   DISTS ["uniform zipfian latest hotspot sequential exponential"]
#   OPS [1000] operations of a set-up run   BIG_OPS [2000000] of a check run
#   BIG_THREADS [4]   ROUNDS [3]   MERGES ["10 100 1000"] result files per merge
#   KEEP=1: keep the per-run logs and result files (their directory is printed)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RECORDS=${RECORDS:-1000000 1000000000 1000000000000}
DISTS=${DISTS:-uniform zipfian latest hotspot sequential exponential}
OPS=${OPS:-1000}
BIG_OPS=${BIG_OPS:-2000000}
BIG_THREADS=${BIG_THREADS:-4}
ROUNDS=${ROUNDS:-3}
MERGES=${MERGES:-10 100 1000}

log() { printf '%s\n' "$*" >&2; }
die() { log "scale.sh: $*"; exit 1; }

command -v go >/dev/null 2>&1 || die "go not found in PATH"
[ -x /usr/bin/time ] || die "/usr/bin/time not found (Debian: apt-get install -y time)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gobench-scale.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
	log "per-run logs kept in $WORK"
else
	trap 'rm -rf "$WORK"' EXIT
fi

log "building gobench from $ROOT"
(cd "$ROOT" && go build -o "$WORK/gobench" ./cmd/gobench) || die "go build ./cmd/gobench failed"
GOBENCH=$WORK/gobench

# timed TAG CMD...: runs CMD under /usr/bin/time -v (stdout and stderr to
# $WORK/TAG.log), fails the script if it fails, and prints "wall_s rss_MB
# cpu_s" (cpu = user+sys of the process).
timed() {
	local tag=$1
	shift
	/usr/bin/time -v -o "$WORK/$tag.time" "$@" >"$WORK/$tag.log" 2>&1 || true
	grep -q 'Exit status: 0' "$WORK/$tag.time" 2>/dev/null ||
		{ tail -n 20 "$WORK/$tag.log" >&2; die "$tag failed: $*"; }
	awk -F': ' '
		/Elapsed \(wall clock\) time/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
		/Maximum resident set size/ { r = $2 / 1024 }
		/User time \(seconds\)/ { u = $2 } /System time \(seconds\)/ { s = $2 }
		END { printf "%.2f %.1f %.2f\n", w, r, u + s }' "$WORK/$tag.time"
}

# median TAG CMD...: ROUNDS runs of timed; the median of each column
# ("wall_s rss_MB cpu_s").
median() {
	local tag=$1 r
	shift
	for ((r = 0; r < ROUNDS; r++)); do
		timed "$tag-$r" "$@"
	done >"$WORK/$tag.runs"
	printf '%s %s %s\n' "$(cut -d' ' -f1 "$WORK/$tag.runs" | mid)" "$(cut -d' ' -f2 "$WORK/$tag.runs" | mid)" \
		"$(cut -d' ' -f3 "$WORK/$tag.runs" | mid)"
}

# mid: the median of the numbers on stdin, one a line.
mid() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ops TAG: the operations the run's report counts (every [OP], Operations
# line except CLEANUP), to check the run did what it was asked.
ops() {
	awk -F', ' '/^\[[A-Z_-]+\], Operations, / && $1 != "[CLEANUP]" && $1 !~ /-FAILED/ { n += $3 } END { print n + 0 }' "$WORK/$1-0.log"
}

echo "== gobench at scale: set-up time and peak RSS against recordcount, merge against result files"
echo "date:      $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine:   $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, Linux $(uname -r)"
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at start (the machine may be shared)"
echo "gobench:   $(cd "$ROOT" && git describe --always --dirty 2>/dev/null || echo unknown), $(go version | cut -d' ' -f3-)"
echo "runs:      median of $ROUNDS; wall = the whole process (start-up, set-up, operations, report); RSS = peak resident set"
echo

# ---- 1 and 2: set-up per distribution and record count ----------------------
row() { # label records cmd...: one table row, set-up run and check run
	local label=$1 rc=$2 kind=$3 small big n sw sr bw br bc
	shift 3
	if [ "$kind" = run ]; then
		small=$(median "s-$label-$rc" "$GOBENCH" run -db basic "$@" -p recordcount="$rc" -p operationcount="$OPS")
		n=$(ops "s-$label-$rc")
		[ "$n" = "$OPS" ] || die "$label at $rc records: $n operations reported, want $OPS"
		big=$(median "b-$label-$rc" "$GOBENCH" run -db basic "$@" -p recordcount="$rc" -p operationcount="$BIG_OPS" -threads "$BIG_THREADS")
		n=$(ops "b-$label-$rc")
		[ "$n" = "$BIG_OPS" ] || die "$label at $rc records: $n operations reported, want $BIG_OPS"
	else
		# insertcount may not pass recordcount
		local few=$((OPS < rc ? OPS : rc)) many=$((BIG_OPS < rc ? BIG_OPS : rc))
		small=$(median "s-$label-$rc" "$GOBENCH" load -db basic "$@" -p recordcount="$rc" -p insertcount="$few")
		n=$(ops "s-$label-$rc")
		[ "$n" = "$few" ] || die "$label at $rc records: $n inserts reported, want $few"
		big=$(median "b-$label-$rc" "$GOBENCH" load -db basic "$@" -p recordcount="$rc" -p insertcount="$many" -threads "$BIG_THREADS")
		n=$(ops "b-$label-$rc")
		[ "$n" = "$many" ] || die "$label at $rc records: $n inserts reported, want $many"
	fi
	read -r sw sr _ <<<"$small"
	read -r bw br bc <<<"$big"
	printf '%-14s | %14s | %8s | %7s | %8s | %7s | %7s\n' "$label" "$rc" "$sw" "$sr" "$bw" "$bc" "$br"
	log "  $label $rc: set-up run $sw s $sr MB, check run $bw s wall, $bc s CPU"
}

echo "Set-up: gobench run -db basic -p requestdistribution=D -p recordcount=R, operationcount=$OPS (1 thread);"
echo "check: the same with operationcount=$BIG_OPS and $BIG_THREADS threads. load rows: gobench load with insertcount"
echo "instead (at most recordcount)."
printf '%-14s | %14s | %8s | %7s | %8s | %7s | %7s\n' distribution recordcount "set-up s" "RSS MB" "check s" "CPU s" "RSS MB"
printf '%s\n' "---------------|----------------|----------|---------|----------|---------|--------"
for d in $DISTS; do
	for rc in $RECORDS; do
		row "$d" "$rc" run -p requestdistribution="$d"
	done
done
for rc in $RECORDS; do
	row "load hashed" "$rc" load
	row "load ordered" "$rc" load -p insertorder=ordered
done
echo

# ---- 3: merge ------------------------------------------------------------------
echo "Merge: gobench merge -o merged.json of N result files, each from"
echo "gobench run -db basic -p recordcount=100000 -p operationcount=1000 -p gobench.clients=N -p gobench.client=I -p exporter=json"
printf '%-6s | %8s | %7s | %7s | %8s | %5s\n' files "merge s" "CPU s" "RSS MB" "input KB" bins
printf '%s\n' "-------|----------|---------|---------|----------|------"
for n in $MERGES; do
	dir=$WORK/merge-$n
	mkdir -p "$dir"
	log "  making $n result files"
	seq 0 $((n - 1)) | xargs -P "$(nproc)" -I{} "$GOBENCH" run -db basic -p recordcount=100000 -p operationcount=1000 \
		-p gobench.clients="$n" -p gobench.client={} -p exporter=json -p exportfile="$dir/c{}.json" >/dev/null 2>&1 ||
		die "a tiny run for the merge of $n files failed"
	[ "$(find "$dir" -name 'c*.json' | wc -l)" = "$n" ] || die "want $n result files in $dir"
	files=()
	for ((i = 0; i < n; i++)); do files+=("$dir/c$i.json"); done
	m=$(median "merge-$n" "$GOBENCH" merge -o "$WORK/merged-$n.json" "${files[@]}")
	grep -q "^\[OVERALL\], Clients, $n\$" "$WORK/merge-$n-0.log" || die "merge of $n files: no '[OVERALL], Clients, $n' line"
	size=$(cat "${files[@]}" | wc -c | awk '{ printf "%.0f", $1 / 1024 }')
	# bins: the merged document's intervals (elements of its "intervals" array)
	bins=$(awk '/^  "intervals": \[/ { on = 1; next } on && /^  []"]/ { on = 0 } on && /^    \{/ { n++ } END { print n + 0 }' "$WORK/merged-$n.json")
	read -r mw mr mc <<<"$m"
	printf '%-6s | %8s | %7s | %7s | %8s | %5s\n' "$n" "$mw" "$mc" "$mr" "$size" "$bins"
	log "  merge of $n files: $mw s, $mr MB, $bins bins"
done
echo
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at end"
