package dfsio

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/measure"
)

const mega = 1 << 20 // TestDFSIO's MEGA: MB are MiB

// Format picks which TestDFSIO generation's summary lines to print.
type Format uint8

// The three output generations of TestDFSIO (see the spec).
const (
	Format3x  Format = iota // current 3.x: DecimalFormat("#.##"), labels width 23 (default)
	FormatMid               // short-lived 2.8/3.0-alpha: 3.x plus the buggy "Total Throughput mb/sec" line
	Format2x                // 2.x: Java toString numbers, labels width 22
)

// ParseFormat parses "3", "3.x", "mid", "2" or "2.x".
func ParseFormat(s string) (Format, bool) {
	switch strings.ToLower(s) {
	case "3", "3.x", "c", "gen-c", "":
		return Format3x, true
	case "mid", "b", "gen-b":
		return FormatMid, true
	case "2", "2.x", "a", "gen-a":
		return Format2x, true
	}
	return 0, false
}

// Summary is TestDFSIO's analyzeResult input: the reducer's sums over
// the files that completed, with the job's wall time, plus what gobench adds.
type Summary struct {
	Test   Test
	Tasks  int64   // files completed (l:tasks)
	Size   int64   // Σ bytes (l:size)
	Time   int64   // Σ per-file execTime in ms (l:time)
	Rate   float32 // Σ rate×1000, rate in MiB/s as a 32-bit float (f:rate)
	SqRate float32 // Σ rate²×1000 (f:sqrate)
	// ExecMS is the whole run's wall time in ms, TestDFSIO's "Test exec
	// time": from before deleting the previous output to after part-00000.
	ExecMS int64
	Failed int    // files that did not complete (TestDFSIO would fail the job)
	Files  []File // every file, in order
}

// sums is the reducer's output over the completed files, in file order
// (Java's order of values is the shuffle's).
func (j *Job) sums() Summary {
	s := Summary{Test: j.cfg.Test, Files: j.Files()}
	for _, f := range s.Files {
		if f.Err != nil {
			s.Failed++
			continue
		}
		// IOStatMapper.collectStats: float ioRateMbSec = (float)size*1000 / (execTime*MEGA).
		r := float32(float32(f.Bytes)*1000) / float32(f.ExecMS*mega)
		s.Tasks++
		s.Size += f.Bytes
		s.Time += f.ExecMS
		s.Rate += float32(r * 1000)
		s.SqRate += float32(float32(r*r) * 1000)
	}
	return s
}

// Summary is the run's summary once the Runner has returned; wall is the
// run's wall time (Result.RunTime).
func (j *Job) Summary(wall time.Duration) Summary {
	s := j.sums()
	s.ExecMS = wall.Milliseconds()
	return s
}

// reducerOutput is part-00000 as AccumulatingReducer writes it (keys sorted,
// TextOutputFormat "key\tvalue").
func (s Summary) reducerOutput() string {
	return fmt.Sprintf("f:rate\t%s\nf:sqrate\t%s\nl:size\t%d\nl:tasks\t%d\nl:time\t%d\n",
		javaString(float64(s.Rate), 32), javaString(float64(s.SqRate), 32), s.Size, s.Tasks, s.Time)
}

// MBytes is "Total MBytes processed": Σbytes / 2^20 as a float.
func (s Summary) MBytes() float32 { return float32(s.Size) / mega }

// Throughput is "Throughput mb/sec" of TestDFSIO 3.x: total MiB over the
// *sum* of the per-file times, a time-weighted per-file rate, not the
// cluster's throughput (see [Summary.Aggregate]).
func (s Summary) Throughput() float32 { return s.MBytes() / (float32(s.Time) / 1000) }

// AvgRate is "Average IO rate mb/sec": the mean of the per-file rates.
func (s Summary) AvgRate() float64 { return float64(s.Rate / 1000 / float32(s.Tasks)) }

// StdDev is "IO rate std deviation": the population standard deviation of
// the per-file rates.
func (s Summary) StdDev() float64 {
	med := s.AvgRate()
	return math.Sqrt(math.Abs(float64(s.SqRate/1000/float32(s.Tasks)) - med*med))
}

// ExecSec is "Test exec time sec".
func (s Summary) ExecSec() float32 { return float32(s.ExecMS) / 1000 }

// Aggregate is gobench's addition: total MiB over the wall time, the
// throughput the cluster delivered to all files together.
func (s Summary) Aggregate() float64 {
	return float64(s.Size) / mega / (float64(s.ExecMS) / 1000)
}

// FileTimes returns the per-file times of the completed files, sorted.
func (s Summary) FileTimes() []time.Duration {
	var t []time.Duration
	for _, f := range s.Files {
		if f.Err == nil {
			t = append(t, f.Time)
		}
	}
	slices.Sort(t)
	return t
}

// Lines are TestDFSIO's result block in format f, ending with the empty
// line; now is the "Date & time" (Java prints the time of the summary in the
// JVM's zone).
func (s Summary) Lines(now time.Time, f Format) []string {
	date := now.Format("Mon Jan 02 15:04:05 MST 2006")
	if f == Format2x {
		return []string{
			"----- TestDFSIO ----- : " + s.Test.String(),
			"           Date & time: " + date,
			"       Number of files: " + strconv.FormatInt(s.Tasks, 10),
			"Total MBytes processed: " + javaString(float64(s.MBytes()), 32),
			"     Throughput mb/sec: " + javaString(float64(s.Size)*1000.0/float64(s.Time*mega), 64),
			"Average IO rate mb/sec: " + javaString(s.AvgRate(), 64),
			" IO rate std deviation: " + javaString(s.StdDev(), 64),
			"    Test exec time sec: " + javaString(float64(s.ExecSec()), 32),
			"",
		}
	}
	l := []string{
		"----- TestDFSIO ----- : " + s.Test.String(),
		"            Date & time: " + date,
		"        Number of files: " + strconv.FormatInt(s.Tasks, 10),
		" Total MBytes processed: " + decimal2(float64(s.MBytes())),
		"      Throughput mb/sec: " + decimal2(float64(s.Throughput())),
	}
	if f == FormatMid {
		// That generation computed Throughput in double and divided the
		// total by milliseconds (1000x too small; MAPREDUCE-6931).
		l[4] = "      Throughput mb/sec: " + decimal2(float64(s.Size)*1000.0/float64(s.Time*mega))
		l = append(l, "Total Throughput mb/sec: "+decimal2(float64(s.MBytes()/float32(s.ExecMS))))
	}
	return append(l,
		" Average IO rate mb/sec: "+decimal2(s.AvgRate()),
		"  IO rate std deviation: "+decimal2(s.StdDev()),
		"     Test exec time sec: "+decimal2(float64(s.ExecSec())),
		"",
	)
}

// GobenchLines are gobench's additions, printed after TestDFSIO's block:
// the aggregate throughput over the wall time, the per-file time
// distribution, and failed files.
func (s Summary) GobenchLines() []string {
	l := []string{fmt.Sprintf("gobench: Aggregate throughput mb/sec: %s (%s MB in %s s wall time)",
		decimal2(s.Aggregate()), decimal2(float64(s.MBytes())), decimal2(float64(s.ExecSec())))}
	if t := s.FileTimes(); len(t) > 0 {
		q := func(p float64) string {
			// nearest rank: the smallest time with at least p of the files at or below it
			i := int(math.Ceil(p*float64(len(t)))) - 1
			return secs(t[max(i, 0)])
		}
		l = append(l, fmt.Sprintf("gobench: File time sec: min=%s p50=%s p90=%s max=%s (%d files)",
			secs(t[0]), q(0.5), q(0.9), secs(t[len(t)-1]), len(t)))
	}
	if s.Failed > 0 {
		first := ""
		for _, f := range s.Files {
			if f.Err != nil {
				first = f.Err.Error()
				break
			}
		}
		l = append(l, fmt.Sprintf("gobench: Failed files: %d of %d (first: %s)", s.Failed, len(s.Files), first))
	}
	return l
}

// secs prints d in seconds with millisecond precision.
func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }

// decimal2 is Java's DecimalFormat("#.##"), as measure renders it.
func decimal2(v float64) string { return measure.FormatDecimal2(v) }

// javaString is Java's Float.toString (bits 32) or Double.toString (64),
// as measure renders them.
func javaString(v float64, bits int) string {
	if bits == 32 {
		return measure.FormatJavaFloat(float32(v))
	}
	return measure.FormatJavaDouble(v)
}
