package workload

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/props"
)

func decode(t *testing.T, text string) (Spec, *props.Decoder, error) {
	t.Helper()
	vals, err := props.Parse(strings.NewReader(text), "test.properties")
	if err != nil {
		t.Fatal(err)
	}
	var set props.Set
	set.Add(vals...)
	d := props.NewDecoder(&set)
	s, err := Decode(d, Transactions)
	return s, d, err
}

func TestDecodeJavaTemplateKeys(t *testing.T) {
	s, d, err := decode(t, "workload=site.ycsb.workloads.CoreWorkload\nrecordcount=10\nmaxscanrate=5\nscanoptimelimit=0\nmeasurementtype=histogram\nmeasurement.trackjvm=true\n")
	if err != nil || d.Err() != nil {
		t.Fatalf("Decode: %v / %v", err, d.Err())
	}
	if u := d.Unknown(nil); len(u) != 0 {
		t.Errorf("keys of Java's template reported unknown: %v", u)
	}
	notes := strings.Join(s.Notes, "\n")
	for _, want := range []string{"maxscanrate=5", "measurement.trackjvm=true", "measurementtype=histogram"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if strings.Contains(notes, "scanoptimelimit") {
		t.Errorf("a no-effect key at its default is noted:\n%s", notes)
	}
	if s.Kind != KindCore || s.RecordCount != 10 {
		t.Errorf("Kind %q RecordCount %d", s.Kind, s.RecordCount)
	}
}

func TestDecodeReportsEveryProblem(t *testing.T) {
	_, d, err := decode(t, "recordcount=x\nrequestdistribution=zipf\nthreadcount=0\nhotspotdatafraction=2\n")
	msg := ""
	if d.Err() != nil {
		msg += d.Err().Error()
	}
	if err != nil {
		msg += err.Error()
	}
	for _, want := range []string{"recordcount", "requestdistribution", "threadcount", "hotspotdatafraction"} {
		if !strings.Contains(msg, want) {
			t.Errorf("problems lack %s:\n%s", want, msg)
		}
	}
}
