#!/usr/bin/env bash
# bench/hbase-faults.sh: gobench's hbase driver and Java YCSB 0.17 (testenv's HBase 2 binding,
# HBase's own client) under the same fault schedule on testenv's cluster (up.sh --cluster hdfs
# hbase: 3 RegionServers on a 3-DataNode HDFS), one tool after the other, same workload file,
# same threads, same client timeouts. Per tool: a fresh table pre-split into REGIONS regions
# (YCSB's split points), a load of RECORDS records, then workload A for DURATION seconds with
# one status line per second while the schedule runs (seconds from the first status line):
#   every 2 s         one random region of the table moved to another server (skipped while
#                     the previous move or balancer run is still going)
#   BALANCE_AT        the balancer ("20 80")
#   KILL_AT           SIGKILL of one RegionServer that does not hold hbase:meta (30)
#   KILL_AT+DOWN_FOR  that server started again with its data (20 s later), then asked
#                     whether every region of the table is open ("served")
# and prints, side by side: failed operations (in the whole run, and from the kill on),
# throughput before the kill, its dip after it, when it is back at half the pre-kill
# throughput, recovery time (from the kill until 5 seconds in a row at 80 % of the pre-kill
# throughput or more), the worst per-second p99 of READ and
# UPDATE after the kill against before it, the operations done in the 60 s after the kill, and
# ops/s in 5 s steps from 10 s before the kill to 60 s after it.
#
# Run it under the cluster lock, with the cluster up (it is not started here):
#   flock /tmp/gobench-cluster.lock bench/hbase-faults.sh
# Environment: RECORDS (100000), THREADS (64), DURATION (120 s), REGIONS (24), KILL_AT (30),
# DOWN_FOR (20), BALANCE_AT ("20 80"), OPTIMEOUT (hbase.client.operation.timeout for both
# tools, ms; 30000), TOOLS ("gobench java"), GOBENCH (a gobench binary; default: built from
# ./cmd/gobench). Logs (reports, status lines, schedule) stay in the directory printed first;
# REPORT_DIR=that directory prints the table again from them (nothing runs).
set -u -o pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
records=${RECORDS:-100000}
threads=${THREADS:-64}
duration=${DURATION:-120}
regions=${REGIONS:-24}
kill_at=${KILL_AT:-30}
down_for=${DOWN_FOR:-20}
balance_at=${BALANCE_AT:-20 80}
optimeout=${OPTIMEOUT:-30000}
tools=${TOOLS:-gobench java}
for v in records threads duration regions kill_at down_for optimeout; do
	[[ ${!v} =~ ^[0-9]+$ ]] || { echo "bench/hbase-faults.sh: ${v^^}=\"${!v}\": want a whole number" >&2; exit 2; }
done
for t in $tools; do
	case $t in gobench | java) ;; *) echo "bench/hbase-faults.sh: TOOLS: \"$t\": want gobench and/or java" >&2; exit 2 ;; esac
done
[ $((kill_at + down_for)) -lt "$duration" ] || { echo "bench/hbase-faults.sh: KILL_AT+DOWN_FOR ($((kill_at + down_for))) must be below DURATION ($duration)" >&2; exit 2; }
if [ -n "${REPORT_DIR:-}" ]; then
	out=$REPORT_DIR # only the table, from the logs of an earlier run (and its settings)
	[ -f "$out/params" ] || { echo "bench/hbase-faults.sh: REPORT_DIR=$out: no params file of an earlier run there" >&2; exit 2; }
	. "$out/params"
else
	out=$(mktemp -d "${TMPDIR:-/tmp}/gobench-hbase-faults.XXXXXX")
	echo "bench/hbase-faults.sh: logs in $out" >&2
	testenv/status.sh --cluster hdfs hbase >"$out/status" 2>&1 ||
		{ cat "$out/status" >&2; echo "bench/hbase-faults.sh: the cluster is not up; start it with: flock /tmp/gobench-cluster.lock testenv/up.sh --cluster hdfs hbase" >&2; exit 1; }
	run_date=$(date -u '+%Y-%m-%d %H:%M UTC')
	run_load=$(cut -d" " -f1-3 /proc/loadavg)
	declare -p run_date run_load records threads duration regions kill_at down_for balance_at optimeout tools >"$out/params"
	gobench=${GOBENCH:-}
	if [ -z "$gobench" ]; then
		gobench=$out/gobench
		go build -o "$gobench" ./cmd/gobench || exit 1
	fi
fi
now() { date +%s.%N; }
log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }
die() { log "bench/hbase-faults.sh: $*"; exit 1; }

# An admin shell (testenv/fault.sh hbase shell, one JVM): commands through a fifo, every
# output line stamped with the epoch time into $out/NAME.log.
declare -A shfd
shell_open() {
	local name=$1 fifo=$out/$1.in
	mkfifo "$fifo"
	(
		for f in "${shfd[@]}"; do exec {f}>&-; done # (the other shells' ends: their EOF is ours to give)
		testenv/fault.sh hbase shell <"$fifo" 2>&1 | while IFS= read -r l; do printf '%s %s\n' "$(now)" "$l"; done >"$out/$name.log"
	) &
	exec {fd}>"$fifo"
	shfd[$name]=$fd
	: >"$out/$name.sent"
}
# answers NAME: commands answered so far (the shell's banner "> ok ready" is not one).
answers() { grep -cE '^[0-9.]+ > (ok$|err)' "$out/$1.log" 2>/dev/null; }
sent() { wc -l <"$out/$1.sent"; }
shell_send() { echo "$2" >&"${shfd[$1]}"; printf '%s %s\n' "$(now)" "$2" >>"$out/$1.sent"; }
idle() { [ "$(answers "$1")" -ge "$(sent "$1")" ]; }
# ask NAME CMD TIMEOUT: send, wait for the answer; prints the answer's lines (unstamped).
ask() {
	local n=$1 want deadline=$((SECONDS + $3))
	want=$(($(sent "$n") + 1))
	shell_send "$n" "$2"
	while [ "$(answers "$n")" -lt "$want" ]; do
		[ $SECONDS -lt $deadline ] || { log "$n: no answer to \"$2\" in $3 s"; return 1; }
		sleep 0.2
	done
	awk -v w="$want" '{ sub(/^[0-9.]+ /, "") } /^> ok ready$/ { next } /^> (ok$|err)/ { k++; next } k == w - 1 { print }' "$out/$n.log"
	awk -v w="$want" '/^[0-9.]+ > (ok$|err)/ { k++; if (k == w) { print; exit } }' "$out/$n.log" | grep -q '> ok'
}
# nofds CMD...: CMD without the shells' fifo ends (a RegionServer started by fault.sh start
# would keep them open, and the shells would never see their end of input).
nofds() { (
	for f in "${shfd[@]}"; do exec {f}>&-; done
	exec "$@"
); }
shell_close() { exec {shfd[$1]}>&-; }

# metric FILE OP FIELD: the value of "[OP], FIELD, value" in a YCSB-format report.
metric() { awk -F', ' -v op="[$2]" -v f="$3" '$1 == op && $2 == f { print $3; exit }' "$1"; }
# failed FILE: operations of the report that did not return OK (every operation type).
failed() { awk -F', ' '$1 !~ /OVERALL|CLEANUP|-FAILED/ && $2 ~ /^Return=/ && $2 != "Return=OK" { n += $3 } END { print n + 0 }' "$1"; }

# timeline STATUSFILE: one line per status line: epoch ops/s failed-in-interval read-p99 update-p99.
timeline() {
	awk '/ sec: / && /operations;/ {
		d = $1; t = $2; gsub(/-/, " ", d); split(t, c, ":")
		e = mktime(d " " c[1] " " c[2] " " c[3]) + c[4] / 1000
		ops = 0; if (match($0, /operations; [0-9.]+ current/)) { s = substr($0, RSTART + 12, RLENGTH - 20); ops = s + 0 }
		f = 0; rp = ""; up = ""; rest = $0
		while (match(rest, /\[[A-Z-]+: Count=[0-9]+[^]]*\]/)) {
			seg = substr(rest, RSTART + 1, RLENGTH - 2); rest = substr(rest, RSTART + RLENGTH)
			name = seg; sub(/:.*/, "", name)
			cnt = seg; sub(/.*Count=/, "", cnt); sub(/,.*/, "", cnt)
			p = seg; if (sub(/.*, 99=/, "", p)) sub(/,.*/, "", p); else p = ""
			if (name ~ /-/ && name != "READ-MODIFY-WRITE") f += cnt
			else if (name == "READ" && cnt > 0) rp = p
			else if (name == "UPDATE" && cnt > 0) up = p
		}
		printf "%.3f %.1f %d %s %s\n", e, ops, f, (rp == "" ? "-" : rp), (up == "" ? "-" : up)
	}' "$1"
}

# analyse TOOL: the figures of one tool's run, as "key value" lines in $out/TOOL.figures.
analyse() {
	local t=$1
	timeline "$out/$t.run.err" >"$out/$t.timeline"
	awk -v t0="$(cat "$out/$t.t0")" -v kill="$(cat "$out/$t.killed")" -v served="$(cat "$out/$t.served")" \
		-v started="$(cat "$out/$t.started")" -v failed="$(failed "$out/$t.run")" -v thr="$(metric "$out/$t.run" OVERALL 'Throughput(ops/sec)')" \
		-v rc="$(cat "$out/$t.rc")" -v wall="$(cat "$out/$t.wall")" '
	{ e[NR] = $1; o[NR] = $2; f[NR] = $3; rp[NR] = $4; up[NR] = $5 }
	function max(a, b) { return (b == "-" || a >= b + 0) ? a : b + 0 }
	END {
		n = NR; base = 0; nb = 0; bf = 0; bmr = 0; bmu = 0
		for (i = 1; i <= n; i++) if (e[i] >= t0 + 10 && e[i] < kill) { base += o[i]; nb++; bmr = max(bmr, rp[i]); bmu = max(bmu, up[i]) }
		if (nb) base /= nb
		low = -1; after = 0; done60 = 0; rec = ""; amr = 0; amu = 0
		for (i = 1; i <= n; i++) {
			if (e[i] < kill) { bf += f[i]; continue }
			after += f[i]; amr = max(amr, rp[i]); amu = max(amu, up[i])
			if (e[i] <= kill + 60) done60 += o[i] * (i > 1 ? e[i] - e[i - 1] : 1)
			if (low < 0 || o[i] < low) low = o[i]
			if (o[i] < 0.5 * base) dipped = 1
			else if (dipped && half == "") half = e[i] - kill
			if (rec == "" && nb) {
				ok = (i + 4 <= n)
				for (j = i; j <= i + 4 && ok; j++) if (o[j] < 0.8 * base) ok = 0
				if (ok) rec = e[i] - kill
			}
		}
		printf "exit %s\nwall %s\nthroughput %.0f\nfailed %d\nfailed_before_kill %d\nfailed_after_kill %d\n", rc, wall, thr, failed, bf, after
		printf "base %.0f\nlow %.0f\nhalf %s\nrecovery %s\ndone60 %.0f\n", base, low, (half == "" ? (dipped ? "none" : "no dip") : sprintf("%.1f", half)), (rec == "" ? "none" : sprintf("%.1f", rec)), done60
		printf "p99_read_before %d\np99_read_after %d\np99_update_before %d\np99_update_after %d\n", bmr, amr, bmu, amu
		printf "kill_at %.1f\nstarted_at %.1f\nserved_at %.1f\n", kill - t0, started - t0, served - t0
	}' "$out/$t.timeline" >"$out/$t.figures"
}

props=(-p "recordcount=$records" -p "hbase.client.operation.timeout=$optimeout")
# load TOOL TABLE / run TOOL TABLE: stdout (the report) to $out/TOOL.{load,run}, stderr beside.
load() {
	case $1 in
	gobench) "$gobench" load -db hbase -P workloads/workloada -threads 16 -p "table=$2" -p "hbase.zookeeper.quorum=127.0.0.1:22181" "${props[@]}" ;;
	java) YCSB_HBASE_SITE="hbase.client.operation.timeout=$optimeout" testenv/ycsb.sh --cluster load -P workloads/workloada -threads 16 -p "table=$2" -p "recordcount=$records" ;;
	esac >"$out/$1.load" 2>"$out/$1.load.err"
}
# (operationcount: a bound that maxexecutiontime reaches first; Java YCSB 0.17 takes
# operationcount=0 as "no thread" and does nothing)
run() {
	local common=(-P workloads/workloada -threads "$threads" -s -p "table=$2" -p operationcount=1000000000 -p "maxexecutiontime=$duration" -p status.interval=1)
	case $1 in
	gobench) "$gobench" run -db hbase "${common[@]}" -p "hbase.zookeeper.quorum=127.0.0.1:22181" -p gobench.maxerrorratio=1 "${props[@]}" ;;
	java) YCSB_HBASE_SITE="hbase.client.operation.timeout=$optimeout" testenv/ycsb.sh --cluster run "${common[@]}" -p "recordcount=$records" ;;
	esac >"$out/$1.run" 2>"$out/$1.run.err"
}

[ -n "${REPORT_DIR:-}" ] || for tool in $tools; do
	table=gb_faults_$tool
	log "$tool: waiting for 3 RegionServers, creating $table ($regions regions)"
	shell_open "$tool.admin"
	ask "$tool.admin" "wait-ready 3 300" 320 >/dev/null || die "the cluster is not ready (3 RegionServers); see $out/$tool.admin.log"
	ask "$tool.admin" "create $table family $regions --drop" 300 >"$out/$tool.create" || die "create $table failed; see $out/$tool.admin.log"
	meta=$(ask "$tool.admin" "locate hbase:meta a" 60 | awk '$1 ~ /^hbase-rs[0-9]$/ { print $1; exit }') || die "locate hbase:meta failed"
	victim=
	for n in hbase-rs2 hbase-rs3 hbase-rs1; do [ "$n" = "$meta" ] || { victim=$n; break; }; done
	log "$tool: loading $records records (16 threads)"
	t=$(now)
	load "$tool" "$table" || die "$tool load failed; see $out/$tool.load.err"
	log "$tool: loaded in $(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }') s, $(metric "$out/$tool.load" OVERALL 'Throughput(ops/sec)') ops/s; hbase:meta on $meta, victim $victim"
	shell_open "$tool.watch"
	ask "$tool.watch" "wait-served $table 60" 120 >/dev/null || die "$table not served"

	log "$tool: workload A, $threads threads, $duration s, faults on"
	t=$(now)
	(
		run "$tool" "$table"
		echo $? >"$out/$tool.rc"
	) &
	runpid=$!
	while ! grep -q ' sec: ' "$out/$tool.run.err" 2>/dev/null; do
		kill -0 $runpid 2>/dev/null || die "$tool run ended before its first status line; see $out/$tool.run.err"
		sleep 0.1
	done
	t0=$(now)
	echo "$t0" >"$out/$tool.t0"
	: >"$out/$tool.schedule"
	# Moves and balancer runs, one at a time through the admin shell.
	(
		k=1
		bal=($balance_at)
		while kill -0 $runpid 2>/dev/null; do
			el=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
			if [ ${#bal[@]} -gt 0 ] && awk -v e="$el" -v b="${bal[0]}" 'BEGIN { exit !(e >= b) }'; then
				if idle "$tool.admin"; then
					shell_send "$tool.admin" balance
					echo "$(now) balance" >>"$out/$tool.schedule"
					bal=("${bal[@]:1}")
				fi
			elif awk -v e="$el" -v k="$k" 'BEGIN { exit !(e >= 2 * k) }'; then
				if idle "$tool.admin"; then
					shell_send "$tool.admin" "shuffle $table 1"
					echo "$(now) move" >>"$out/$tool.schedule"
				else
					echo "$(now) move skipped (busy)" >>"$out/$tool.schedule"
				fi
				k=$((k + 1))
			fi
			sleep 0.2
		done
	) &
	movepid=$!
	# The kill, the start DOWN_FOR seconds later, then until every region is served.
	(
		sleep "$(awk -v a="$t0" -v b="$(now)" -v k="$kill_at" 'BEGIN { d = a + k - b; print (d > 0 ? d : 0) }')"
		nofds testenv/fault.sh kill "$victim" >>"$out/$tool.fault" 2>&1
		now >"$out/$tool.killed"
		echo "$(cat "$out/$tool.killed") kill $victim" >>"$out/$tool.schedule"
		sleep "$down_for"
		nofds testenv/fault.sh start "$victim" >>"$out/$tool.fault" 2>&1
		now >"$out/$tool.started"
		echo "$(cat "$out/$tool.started") $victim started" >>"$out/$tool.schedule"
		ask "$tool.watch" "wait-served $table 300" 320 >/dev/null
		now >"$out/$tool.served"
		echo "$(cat "$out/$tool.served") every region served" >>"$out/$tool.schedule"
	) &
	killpid=$!
	wait $runpid
	echo "$(awk -v a="$t" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')" >"$out/$tool.wall"
	wait $movepid
	wait $killpid
	shell_close "$tool.admin"
	shell_close "$tool.watch"
	wait
	[ -s "$out/$tool.served" ] || now >"$out/$tool.served"
	log "$tool: exit $(cat "$out/$tool.rc"), $(grep -c move "$out/$tool.schedule") moves ($(grep -c skipped "$out/$tool.schedule") skipped), $(grep -c balance "$out/$tool.schedule") balancer runs"
	ask_ok=1
	nofds testenv/fault.sh hbase drop "$table" >/dev/null 2>&1 || ask_ok=0
	[ $ask_ok = 1 ] || log "$tool: drop $table failed (left in place)"
done
for tool in $tools; do analyse "$tool"; done

# The table, one column per tool.
fig() { awk -v k="$2" '$1 == k { print $2 }' "$out/$1.figures"; }
row() {
	local label=$1 key=$2 line
	line=$(printf '%-44s' "$label")
	for tool in $tools; do line+=$(printf ' %14s' "$(fig "$tool" "$key")"); done
	echo "$line"
}
echo "== bench/hbase-faults.sh: $run_date, gobench $(git rev-parse --short HEAD 2>/dev/null), load avg ${run_load:-?} at start"
echo "workload A, $threads threads, $duration s, $records records, $regions regions over 3 RegionServers; hbase.client.operation.timeout $optimeout ms"
echo "schedule (s from the first status line): a region moved every 2 s, balancer at $balance_at, SIGKILL of a RegionServer without hbase:meta at $kill_at, started $down_for s later"
hdr=$(printf '%-44s' "")
for tool in $tools; do hdr+=$(printf ' %14s' "$tool"); done
echo "$hdr"
row "exit status" exit
row "run wall time incl. start-up (s)" wall
row "throughput over the run (ops/s)" throughput
row "failed operations (report)" failed
row "  failed before the kill (status lines)" failed_before_kill
row "  failed from the kill on (status lines)" failed_after_kill
row "ops/s before the kill (10 s to kill, mean)" base
row "lowest ops/s after the kill" low
row "back to >=50% after the dip (s after kill)" half
row "recovery: kill to 5 s at >=80% (s)" recovery
row "operations in the 60 s after the kill" done60
row "READ p99 us, worst second before kill" p99_read_before
row "READ p99 us, worst second after kill" p99_read_after
row "UPDATE p99 us, worst second before kill" p99_update_before
row "UPDATE p99 us, worst second after kill" p99_update_after
row "kill at (s)" kill_at
row "server started at (s)" started_at
row "every region served (asked after the start) (s)" served_at
# ops/s in 5 s buckets from 10 s before the kill to 60 s after it, one column per tool.
echo "ops/s (mean of the status lines) in 5 s steps around the kill:"
hdr=$(printf '%-44s' "seconds after the kill")
for tool in $tools; do hdr+=$(printf ' %14s' "$tool"); done
echo "$hdr"
for b in $(seq -10 5 55); do
	line=$(printf '%-44s' "$b..$((b + 5))")
	for tool in $tools; do
		line+=$(awk -v k="$(cat "$out/$tool.killed")" -v b="$b" '$1 > k + b && $1 <= k + b + 5 { s += $2; n++ }
			END { printf " %14s", n ? sprintf("%.0f", s / n) : "-" }' "$out/$tool.timeline")
	done
	echo "$line"
done
