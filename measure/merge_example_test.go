package measure_test

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/gobench/gobench/measure"
)

// clientDocument is the result document of a client that did n reads of
// lat each, one per 10 ms, from start on, as `gobench run -p exporter=json`
// writes it (one interval per second).
func clientDocument(client string, start time.Time, n int, lat time.Duration) *measure.Document {
	c := measure.NewCollector(measure.Layout{Series: []string{"READ"}, Codes: []string{"OK"}}, measure.Options{Start: start})
	r := c.NewRecorder()
	for i := 1; i <= n; i++ {
		r.Record(0, lat)
		r.Count(0, 0)
		r.Done(1)
		if i%100 == 0 {
			c.Cut(start.Add(time.Duration(i) * 10 * time.Millisecond))
		}
	}
	d := time.Duration(n) * 10 * time.Millisecond
	doc, _ := measure.NewDocument(c.Total(), measure.DocumentOptions{
		Config:    map[string]string{"gobench.clients": "2", "gobench.client": client},
		RunTime:   d,
		Intervals: c.Intervals(),
	})
	// Round trip, as files would: the merge reads documents, not collectors.
	var b bytes.Buffer
	measure.WriteDocument(&b, doc)
	back, _ := measure.ReadDocument(&b)
	return back
}

// Two clients of one run, merged in a Go program: exact percentiles of the
// union, and the throughput over the 9 s in which both ran.
func ExampleMerge() {
	t0 := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	docs := []*measure.Document{
		clientDocument("0", t0, 1000, 200*time.Microsecond),                  // 10 s, 100 ops/s
		clientDocument("1", t0.Add(time.Second), 1000, 400*time.Microsecond), // 1 s later
	}
	m, err := measure.Merge(docs, []string{"c0.json", "c1.json"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range m.Warnings {
		fmt.Println("Warning:", w)
	}
	measure.WriteText(os.Stdout, m.Lines())
	// Output:
	// Warning: the clients ran together for only 82% of the merged span (common window 9s of 11s): the throughput is over the common window
	// [OVERALL], RunTime(ms), 11000
	// [OVERALL], Throughput(ops/sec), 200.0
	// [OVERALL], Window, common
	// [OVERALL], Clients, 2
	// [OVERALL], CommonWindow(ms), 9000
	// [READ], Operations, 2000
	// [READ], AverageLatency(us), 300.0
	// [READ], MinLatency(us), 200
	// [READ], MaxLatency(us), 400
	// [READ], 50thPercentileLatency(us), 200
	// [READ], 95thPercentileLatency(us), 400
	// [READ], 99thPercentileLatency(us), 400
	// [READ], Return=OK, 2000
}
