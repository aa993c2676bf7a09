package measure

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestResultRoundTrip(t *testing.T) {
	c0, ivs := workloadSnapshot(t)
	l := c0.Layout()
	kept := c0.Intervals()
	if len(kept) != len(ivs) {
		t.Fatalf("collector kept %d intervals, want %d", len(kept), len(ivs))
	}
	for k, iv := range ivs {
		if want := EncodeInterval(iv); !reflect.DeepEqual(kept[k], want) {
			t.Errorf("kept interval %d differs from EncodeInterval of the cut interval", k)
		}
	}
	total := c0.Total()
	opts := DocumentOptions{
		Config:    map[string]string{"recordcount": "1000", "workload": "core"},
		Seed:      1<<63 + 12345,
		RunTime:   3010 * time.Millisecond,
		Intervals: kept,
	}
	res, err := NewDocument(total, opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteDocument(&buf, res); err != nil {
		t.Fatal(err)
	}
	back, err := ReadDocument(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res, back) {
		t.Errorf("result changed in a JSON round trip:\n%s", buf.String()[:min(2000, buf.Len())])
	}

	// The decoded total renders the same report and holds the same
	// histograms, windows and order.
	got, err := back.Total()
	if err != nil {
		t.Fatal(err)
	}
	assertSameReport(t, total, got)
	ts := LineOptions{RunTime: time.Second, Type: TimeSeries}
	if a, b := renderText(t, Lines(total, ts)), renderText(t, Lines(got, ts)); !bytes.Equal(a, b) {
		t.Errorf("timeseries reports differ:\n%s\n---\n%s", a, b)
	}
	for i := range total.Series {
		a, b := &total.Series[i], got.Lookup(l.Series[i])
		if (a.Hist == nil) != (b.Hist == nil) || (a.Hist != nil && !a.Hist.Equals(b.Hist)) {
			t.Errorf("series %s: histogram differs after decoding", l.Series[i])
		}
	}

	// The kept intervals merge to the total.
	ivSnaps, err := back.IntervalSnapshots()
	if err != nil {
		t.Fatal(err)
	}
	merged := NewSnapshot(l, total.Start, total.Start)
	for _, s := range ivSnaps {
		if err := merged.Merge(s); err != nil {
			t.Fatal(err)
		}
	}
	assertSameReport(t, total, merged)
}

func TestResultMergeAcrossProcesses(t *testing.T) {
	// Two "processes" with different layouts (one never updates, the other
	// knows an extra code) merge by name into one report whose counts add up.
	a := NewCollector(Layout{Series: []string{"READ"}, Codes: []string{"OK"}}, Options{Start: t0})
	b := NewCollector(Layout{Series: []string{"UPDATE", "READ"}, Codes: []string{"ERROR", "OK"}}, Options{Start: t0.Add(time.Second)})
	ra, rb := a.NewRecorder(), b.NewRecorder()
	for i := 0; i < 10; i++ {
		ra.Record(0, time.Duration(100+i)*time.Microsecond)
		ra.Count(0, 0)
		rb.Record(1, time.Duration(200+i)*time.Microsecond)
		rb.Count(1, 1)
		rb.Record(0, time.Millisecond)
		rb.Count(0, 0)
	}
	a.Cut(t0.Add(2 * time.Second))
	b.Cut(t0.Add(3 * time.Second))
	var docs []*Document
	for _, c := range []*Collector{a, b} {
		r, err := NewDocument(c.Total(), DocumentOptions{RunTime: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteDocument(&buf, r); err != nil {
			t.Fatal(err)
		}
		back, err := ReadDocument(&buf)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, back)
	}
	merged, err := docs[0].Total()
	if err != nil {
		t.Fatal(err)
	}
	other, err := docs[1].Total()
	if err != nil {
		t.Fatal(err)
	}
	if err := merged.Merge(other); err != nil {
		t.Fatal(err)
	}
	read, upd := merged.Lookup("READ"), merged.Lookup("UPDATE")
	if read.Count() != 20 || read.MinMicros != 100 || read.MaxMicros != 209 || read.Codes[merged.Layout.CodeIndex("OK")] != 20 {
		t.Errorf("merged READ: count %d, min %d, max %d, OK %d; want 20, 100, 209, 20",
			read.Count(), read.MinMicros, read.MaxMicros, read.Codes[merged.Layout.CodeIndex("OK")])
	}
	if upd == nil || upd.Count() != 10 || upd.Codes[merged.Layout.CodeIndex("ERROR")] != 10 {
		t.Errorf("merged UPDATE = %+v, want 10 samples and 10 ERROR", upd)
	}
	if !merged.Start.Equal(t0) || !merged.End.Equal(t0.Add(3*time.Second)) {
		t.Errorf("merged span %v..%v, want %v..%v", merged.Start, merged.End, t0, t0.Add(3*time.Second))
	}
}

func TestReadDocumentRejects(t *testing.T) {
	for _, in := range []string{`{"format":"other/2"}`, `not json`} {
		if _, err := ReadDocument(strings.NewReader(in)); err == nil {
			t.Errorf("ReadDocument(%q) succeeded, want an error", in)
		}
	}
	r := &Document{Format: DocumentFormat, Series: []SeriesDocument{{SeriesRecord: SeriesRecord{Name: "READ", Histogram: "HISTFAAAbroken"}}}}
	if _, err := r.Total(); err == nil || !strings.Contains(err.Error(), "READ") {
		t.Errorf("Total() with a broken histogram: err = %v, want one naming READ", err)
	}
}
