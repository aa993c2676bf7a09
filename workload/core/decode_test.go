package core

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/engine"
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
	s, err := Decode(d, engine.Transactions)
	return s, d, err
}

func TestDecodeBigtableKeysAreNoted(t *testing.T) {
	s, d, err := decode(t, "recordcount=10\nmaxscanrate=5\nscanoptimelimit=0\n")
	if err != nil || d.Err() != nil {
		t.Fatalf("Decode: %v / %v", err, d.Err())
	}
	if u := d.Unknown(nil); len(u) != 0 {
		t.Errorf("keys of Java's template reported unknown: %v", u)
	}
	notes := strings.Join(s.Notes, "\n")
	if !strings.Contains(notes, "maxscanrate=5") {
		t.Errorf("notes lack maxscanrate=5:\n%s", notes)
	}
	if strings.Contains(notes, "scanoptimelimit") {
		t.Errorf("a no-effect key at its default is noted:\n%s", notes)
	}
	if s.RecordCount != 10 {
		t.Errorf("RecordCount %d", s.RecordCount)
	}
}

func TestDecodeReportsEveryProblem(t *testing.T) {
	_, d, err := decode(t, "recordcount=x\nrequestdistribution=zipf\nfieldcount=0\nhotspotdatafraction=2\n")
	msg := ""
	if d.Err() != nil {
		msg += d.Err().Error()
	}
	if err != nil {
		msg += err.Error()
	}
	for _, want := range []string{"recordcount", "requestdistribution", "fieldcount", "hotspotdatafraction"} {
		if !strings.Contains(msg, want) {
			t.Errorf("problems lack %s:\n%s", want, msg)
		}
	}
}
