package measure_test

import (
	"os"
	"time"

	"github.com/gobench/gobench/measure"
)

func ExampleCollector() {
	const read, readFailed = 0, 1 // series indexes
	const ok, notFound = 0, 1     // code indexes
	start := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	c := measure.NewCollector(measure.Layout{
		Series: []string{"READ", "READ-FAILED"},
		Codes:  []string{"OK", "NOT_FOUND"},
	}, measure.Options{Start: start})

	r := c.NewRecorder() // one per worker goroutine
	for i := 1; i <= 4; i++ {
		r.Record(read, time.Duration(i)*100*time.Microsecond)
		r.Count(read, ok)
		r.Done(1)
	}
	r.Record(readFailed, 900*time.Microsecond)
	r.Count(read, notFound) // codes count against the plain name
	r.Done(1)

	c.Cut(start.Add(time.Second)) // the status thread's job, once per interval
	lines := measure.Lines(c.Total(), measure.LineOptions{RunTime: time.Second})
	measure.WriteText(os.Stdout, lines)
	// Output:
	// [OVERALL], RunTime(ms), 1000
	// [OVERALL], Throughput(ops/sec), 5.0
	// [READ], Operations, 4
	// [READ], AverageLatency(us), 250.0
	// [READ], MinLatency(us), 100
	// [READ], MaxLatency(us), 400
	// [READ], 50thPercentileLatency(us), 200
	// [READ], 95thPercentileLatency(us), 400
	// [READ], 99thPercentileLatency(us), 400
	// [READ], Return=OK, 4
	// [READ], Return=NOT_FOUND, 1
	// [READ-FAILED], Operations, 1
	// [READ-FAILED], AverageLatency(us), 900.0
	// [READ-FAILED], MinLatency(us), 900
	// [READ-FAILED], MaxLatency(us), 900
	// [READ-FAILED], 50thPercentileLatency(us), 900
	// [READ-FAILED], 95thPercentileLatency(us), 900
	// [READ-FAILED], 99thPercentileLatency(us), 900
}
