#!/usr/bin/env bash
# bench/ceilings.sh: gobench's hardware ceilings against the tools they stand in
# for, on this machine, in one run:
#   - gobench disk vs GNU dd: the same file size, block sizes and sync mode:
#       fdatasync: dd if=/dev/zero of=F bs=B count=N conv=fdatasync, then
#                  dd if=F of=/dev/null bs=B iflag=direct
#                  vs gobench disk -bs B -size S -conv fdatasync -iflag direct
#       direct:    dd ... oflag=direct (write), iflag=direct (read)
#                  vs gobench disk -bs B -size S -oflag direct -conv none -iflag direct
#   - gobench net vs iperf3 (Debian's; installed if missing) on loopback with 1
#     and 4 streams: iperf3 -c -> iperf3 -s, gobench net -c -> the same iperf3 -s,
#     gobench net -c -> gobench net -s.
# Each pairing runs ROUNDS times, interleaved with its counterpart (the order
# alternating), on a shared machine that is noisy; the medians and the ratios
# gobench/tool are printed. Throughputs are MB/s (10^6 bytes/s) and Gbits/sec,
# each tool's own count (dd's bytes over its time; iperf3's receiver side).
#
# Usage: bench/ceilings.sh        (from any directory; about 8 minutes)
# Environment (defaults in brackets):
#   DIR [a new directory under $TMPDIR or /tmp]: where the disk files go
#   SIZE [128M]  BS ["4096 65536 1M"]  MODES ["fdatasync direct"]
#   STREAMS ["1 4"]  SECS [5]  ROUNDS [5]  PORT [5299] (and PORT+1)
# Needs: go, dd (coreutils), python3 (to read JSON), iperf3 (apt-get, as root).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZE=${SIZE:-128M}
BS=${BS:-4096 65536 1M}
MODES=${MODES:-fdatasync direct}
STREAMS=${STREAMS:-1 4}
SECS=${SECS:-5}
ROUNDS=${ROUNDS:-5}
PORT=${PORT:-5299}

log() { printf '%s\n' "$*" >&2; }
die() { log "ceilings.sh: $*"; exit 1; }
for t in go dd python3; do command -v "$t" >/dev/null 2>&1 || die "$t not found in PATH"; done
if ! command -v iperf3 >/dev/null 2>&1; then
	log "installing iperf3 (Debian package)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iperf3 >/dev/null || die "could not install iperf3"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gobench-ceilings.XXXXXX")
DIR=${DIR:-$WORK/disk}
mkdir -p "$DIR"
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT
GOBENCH=$WORK/gobench
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$GOBENCH" ./cmd/gobench)

bytes_of() { # 4K, 1M, 128M, 4096 -> bytes (binary units, as dd and gobench take them)
	python3 -c 'import sys,re
m=re.fullmatch(r"(\d+)([KMG]?)", sys.argv[1]); n=int(m.group(1)); print(n*{"":1,"K":1024,"M":1<<20,"G":1<<30}[m.group(2)])' "$1"
}
median() { python3 -c 'import sys,statistics; v=[float(x) for x in sys.argv[1:]]; print("%.1f" % statistics.median(v))' "$@"; }
ratio() { python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print("%.3f" % (a/b) if b else "-")' "$1" "$2"; }

# dd's MB/s from its transfer line: bytes over its seconds.
dd_mbps() { python3 -c 'import sys,re
l=[x for x in sys.stdin.read().splitlines() if " copied, " in x][-1]
m=re.match(r"(\d+) bytes.* copied, ([0-9.e-]+) s,", l); print("%.3f" % (int(m.group(1))/float(m.group(2))/1e6))'; }

# gobench disk's MB/s of test t (write|read) from its -json file.
gb_mbps() { python3 -c 'import sys,json
d=json.load(open(sys.argv[1])); print("%.3f" % [r for r in d["runs"] if r["test"]==sys.argv[2]][0]["mb_per_s"])' "$1" "$2"; }

SIZEB=$(bytes_of "$SIZE")
echo "gobench ceilings on $(hostname): $(nproc) CPUs, disk dir $DIR ($(df -T "$DIR" | awk 'NR==2{print $2" on "$1}')), dd $(dd --version | head -1 | awk '{print $NF}'), $(iperf3 --version | head -1 | awk '{print $1" "$2}')"
echo
echo "## disk: file of $SIZE ($SIZEB bytes), $ROUNDS rounds, medians in MB/s"
printf '%-10s %-8s %-6s %10s %10s %7s\n' mode bs test dd gobench ratio
for mode in $MODES; do
	for bs in $BS; do
		bsb=$(bytes_of "$bs")
		count=$((SIZEB / bsb))
		case $mode in
		fdatasync) ddw="conv=fdatasync"; ddr="iflag=direct"; gbf=(-conv fdatasync -oflag none -iflag direct) ;;
		direct) ddw="oflag=direct"; ddr="iflag=direct"; gbf=(-conv none -oflag direct -iflag direct) ;;
		*) die "mode $mode: fdatasync or direct" ;;
		esac
		ddW=(); ddR=(); gbW=(); gbR=()
		for r in $(seq 1 "$ROUNDS"); do
			# Writes back to back, then reads back to back, the order
			# alternating: the disk is shared, its speed drifts.
			dd_w() { ddW+=("$(dd if=/dev/zero of="$DIR/dd.0" bs="$bsb" count="$count" $ddw 2>&1 | dd_mbps)"); }
			dd_r() { ddR+=("$(dd if="$DIR/dd.0" of=/dev/null bs="$bsb" $ddr 2>&1 | dd_mbps)"); }
			gb() { # $1: write or read
				"$GOBENCH" disk -q -dir "$DIR" -bs "$bsb" -size "$SIZEB" "${gbf[@]}" -test "$1" -keep -json "$WORK/disk.json" >/dev/null 2>"$WORK/disk.err" ||
					{ cat "$WORK/disk.err" >&2; die "gobench disk failed"; }
				if [ "$1" = write ]; then gbW+=("$(gb_mbps "$WORK/disk.json" write)"); else gbR+=("$(gb_mbps "$WORK/disk.json" read)"); fi
			}
			if [ $((r % 2)) = 1 ]; then dd_w; gb write; gb read; dd_r; else gb write; dd_w; dd_r; gb read; fi
			rm -f "$DIR/dd.0" "$DIR/gobench-disk-0"
		done
		w1=$(median "${ddW[@]}"); w2=$(median "${gbW[@]}"); r1=$(median "${ddR[@]}"); r2=$(median "${gbR[@]}")
		printf '%-10s %-8s %-6s %10s %10s %7s\n' "$mode" "$bs" write "$w1" "$w2" "$(ratio "$w2" "$w1")"
		printf '%-10s %-8s %-6s %10s %10s %7s\n' "$mode" "$bs" read "$r1" "$r2" "$(ratio "$r2" "$r1")"
		log "  $mode bs=$bs rounds: dd write ${ddW[*]} | gobench ${gbW[*]} | dd read ${ddR[*]} | gobench ${gbR[*]}"
	done
done

echo
echo "## net: loopback, ${SECS} s per test, $ROUNDS rounds, medians of the receiver's Gbits/sec"
iperf3 -s -B 127.0.0.1 -p "$PORT" >/dev/null 2>&1 &
PIDS+=($!)
"$GOBENCH" net -s -B 127.0.0.1 -p $((PORT + 1)) >/dev/null 2>&1 &
PIDS+=($!)
sleep 1
recv_gbps() { python3 -c 'import sys,json
d=json.load(sys.stdin)
if d.get("error"): sys.exit("error: "+d["error"])
print("%.3f" % (d["end"]["sum_received"]["bits_per_second"]/1e9))'; }
printf '%-8s %16s %22s %22s %9s %9s\n' streams "iperf3->iperf3" "gobench->iperf3 -s" "gobench->gobench -s" ratio1 ratio2
for p in $STREAMS; do
	ii=(); gi=(); gg=()
	for r in $(seq 1 "$ROUNDS"); do
		a() { ii+=("$(iperf3 -c 127.0.0.1 -p "$PORT" -P "$p" -t "$SECS" -J | recv_gbps)"); }
		b() { gi+=("$("$GOBENCH" net -c 127.0.0.1 -p "$PORT" -P "$p" -t "$SECS" -J | recv_gbps)"); }
		c() { gg+=("$("$GOBENCH" net -c 127.0.0.1 -p $((PORT + 1)) -P "$p" -t "$SECS" -J | recv_gbps)"); }
		case $((r % 3)) in
		1) a; b; c ;;
		2) b; c; a ;;
		0) c; a; b ;;
		esac
	done
	m1=$(median "${ii[@]}"); m2=$(median "${gi[@]}"); m3=$(median "${gg[@]}")
	printf '%-8s %16s %22s %22s %9s %9s\n' "$p" "$m1" "$m2" "$m3" "$(ratio "$m2" "$m1")" "$(ratio "$m3" "$m1")"
	log "  -P $p rounds: iperf3 ${ii[*]} | gobench->iperf3 ${gi[*]} | gobench->gobench ${gg[*]}"
done
echo
echo "ratio = gobench / the tool (1.000 = the same; the aim is 0.95 or more). ratio1: gobench's"
echo "client against iperf3's server; ratio2: gobench on both ends."
