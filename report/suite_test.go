package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func exampleSuite() *Suite {
	t0 := time.Date(2024, 5, 6, 10, 2, 0, 0, time.UTC)
	return &Suite{Title: "acceptance <run>", File: "a.suite", Started: t0, Ended: t0.Add(5 * time.Minute), Steps: []SuiteStep{
		{Name: "disk", Label: "disks", Started: t0, Time: time.Minute,
			Metrics:  []Metric{{Name: "write bs=1048576", Value: 200, Unit: "MB/s", MBps: 200}},
			Ceilings: []Ceiling{{Kind: DiskWrite, MBps: 200, Detail: "bs 1M"}, {Kind: DiskRead, MBps: 400}}},
		{Name: "net", Label: "net out", Started: t0.Add(2 * time.Minute), Ceilings: []Ceiling{{Kind: NetSend, MBps: 1000}}},
		{Name: "dfsio", Label: "dfsio write", Started: t0.Add(3 * time.Minute),
			Metrics: []Metric{{Name: "aggregate", Value: 76, Unit: "MB/s", MBps: 76, Against: []string{DiskWrite}}}},
		{Name: "producer-perf", Label: "produce", Started: t0.Add(4 * time.Minute),
			Metrics: []Metric{{Name: "produced", Value: 250, Unit: "MB/s", MBps: 250, Against: []string{NetSend, DiskWrite}}}},
		{Name: "consumer-perf", Label: "consume", Err: "consumer-perf: no broker <at> 127.0.0.1:9092", Output: "<script>alert(1)</script>",
			Metrics: []Metric{{Name: "consumed", Value: 5, Unit: "MB/s", MBps: 5, Against: []string{NetRecv}}}},
	}}
}

// Every throughput against its ceiling, in the sentence the report uses;
// a figure above its ceiling shown as such; a ceiling nobody measured
// said so; a failure shown with its reason; what steps printed escaped.
func TestSuitePage(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSuiteHTML(&b, exampleSuite()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"dfsio write aggregate: 38 % of the disk write ceiling measured at 10:02",
		"produce produced: 25 % of the network send ceiling measured at 10:04",
		"produce produced: 125 % of the disk write ceiling measured at 10:02",
		`class="bar over"`, `style="width:38.0%"`, `style="width:100.0%"`,
		"no network receive ceiling was measured in this run",
		"No network receive ceiling was measured",
		"consumer-perf: no broker &lt;at&gt; 127.0.0.1:9092",
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		"<title>acceptance &lt;run&gt;</title>",
		"4 passed", "1 failed", `id="step-5"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>") {
		t.Error("a step's output reached the page unescaped")
	}
}

// A failed ceiling step does not count: its figure is no ceiling.
func TestCeilingOfFailedStepIgnored(t *testing.T) {
	s := exampleSuite()
	s.Steps[0].Err = "disk full"
	if _, _, ok := s.CeilingFor(DiskWrite); ok {
		t.Fatal("a failed disk step gave a ceiling")
	}
	if c := s.Compare(s.Steps[2].Metrics[0]); len(c) != 0 {
		t.Fatalf("compared against a failed step: %+v", c)
	}
}
