# bench/lib/proc.sh: sourced by the bench scripts that sample a process from /proc while it
# runs (hbase.sh, overhead.sh); each sample line is "$(now) <values...>", which window.awk
# reads beside the process's status lines.

# now: the wall clock in seconds with nanoseconds, as the samples' first column.
now() { date +%s.%N; }
# cputicks and switches succeed when the process is gone (printing nothing), so that a
# caller under set -e does not die of a sample taken as its process ends (overhead.sh did,
# with exit status 2, after a go-ycsb run).
# cputicks PID: utime+stime of PID (clock ticks), empty if it is gone.
cputicks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || true; }
# switches PID: context switches, voluntary and involuntary, of PID's threads now alive.
# (empty while the process is ending and its threads are going)
switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { if (n) print n }' || true; }
