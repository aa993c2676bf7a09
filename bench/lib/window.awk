# bench/lib/window.awk: one run's figures over its measured window, for hbase.sh and
# overhead.sh. Two input files:
#   1. samples taken while the run went on, "epoch v2 v3 ...": a process's CPU ticks, its
#      context switches (bench/lib/proc.sh);
#   2. the run's output with YCSB's status lines (Java YCSB's and gobench's -s,
#      "2026-12-04 17:30:01:123 10 sec: 40123456 operations; ..."), one per second.
# The window runs from the first status line at WARM seconds of the run or later to the
# last status line. Prints one line:
#   ops seconds ops/s read-p99 update-p99 d2 ... dN
# ops and seconds of the window, the median of the status lines' per-second READ and UPDATE
# p99 in it (0 when none), and for each sample column k = 2..N (N = COLS+1) its rise over
# the window, interpolated at the window's ends (a column that falls, such as switches
# summed over threads when one ends, holds its highest value). Numbers go out with 17
# significant digits; the caller rounds. An empty window prints zeros.
# Variables: warm (seconds), cols (the number of sample columns after the epoch).
FNR == 1 { file++ }
file == 1 {
	nc++
	for (k = 1; k <= cols + 1; k++) col[k, nc] = k > 1 && nc > 1 && $k < col[k, nc - 1] ? col[k, nc - 1] : $k
	next
}
/ sec: / && /operations;/ {
	d = $1; gsub(/-/, " ", d); split($2, c, ":")
	e = mktime(d " " c[1] " " c[2] " " c[3]) + c[4] / 1000
	el = $3 + 0; ops = $5 + 0
	if (el < warm) { next }
	if (!started) { started = 1; e0 = e; o0 = ops; next }
	e1 = e; o1 = ops; n++
	rp[n] = p99(" READ: "); up[n] = p99(" UPDATE: ")
}
function p99(series,   s, i) {
	i = index($0, "[" substr(series, 2))
	if (!i) return ""
	s = substr($0, i); sub(/\].*/, "", s)
	if (s ~ /Count=0,/) return ""
	if (!sub(/.*, 99=/, "", s)) return ""
	sub(/,.*/, "", s); return s + 0
}
function at(t, k,   i, f) { # column k of the samples at time t, interpolated
	for (i = 2; i <= nc; i++) if (col[1, i] >= t) {
		f = (t - col[1, i - 1]) / (col[1, i] - col[1, i - 1])
		return col[k, i - 1] + f * (col[k, i] - col[k, i - 1])
	}
	return col[k, nc]
}
function median(a, n,   m, i, j, v, k) { # of the non-empty a[1..n]
	m = 0
	for (i = 1; i <= n; i++) if (a[i] != "") v[++m] = a[i]
	if (!m) return 0
	for (i = 2; i <= m; i++) { k = v[i]; for (j = i - 1; j >= 1 && v[j] > k; j--) v[j + 1] = v[j]; v[j + 1] = k }
	return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
}
END {
	if (!n) {
		s = "0 0 0 0 0"; for (k = 2; k <= cols + 1; k++) s = s " 0"
		print s; exit
	}
	printf "%d %.17g %.17g %.17g %.17g", o1 - o0, e1 - e0, (o1 - o0) / (e1 - e0), median(rp, n), median(up, n)
	for (k = 2; k <= cols + 1; k++) printf " %.17g", at(e1, k) - at(e0, k)
	printf "\n"
}
