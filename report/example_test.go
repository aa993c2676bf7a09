package report_test

import (
	"fmt"
	"os"
	"time"

	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/report"
)

// A run's result document drawn as an HTML page.
func ExampleWriteHTML() {
	col := measure.NewCollector(measure.Layout{Series: []string{"READ"}, Codes: []string{"OK"}}, measure.Options{})
	rec := col.NewRecorder()
	for i := 0; i < 1000; i++ {
		rec.Record(0, time.Duration(100+i)*time.Microsecond)
		rec.Count(0, 0)
		rec.Done(1)
	}
	total := col.Total()
	doc := report.Page{Title: "example", Knee: -1, Runs: []report.Run{{Name: "run", Total: total, RunTime: time.Second}}}
	if err := report.WriteHTML(os.Stdout, &doc); err != nil {
		fmt.Println(err)
	}
}

// The knee of a sweep: throughput stops growing by 5 % at 100 threads
// while p99 keeps growing.
func ExampleKnee() {
	steps := []report.SweepStep{
		{Threads: 10, Throughput: 10000, Summary: report.Summary{P99: 900}},
		{Threads: 50, Throughput: 40000, Summary: report.Summary{P99: 1200}},
		{Threads: 100, Throughput: 52000, Summary: report.Summary{P99: 2500}},
		{Threads: 500, Throughput: 53000, Summary: report.Summary{P99: 12000}},
	}
	k := report.Knee(steps)
	fmt.Println(steps[k].Threads)
	// Output: 100
}
