package props

import (
	"errors"
	"strings"
	"testing"
)

var coreKeys = []string{
	"workload", "db", "threadcount", "target", "operationcount", "recordcount",
	"insertcount", "insertstart", "maxexecutiontime", "fieldcount", "fieldlength",
	"fieldnameprefix", "fieldlengthdistribution", "readproportion", "updateproportion",
	"requestdistribution", "status.interval", "table", "zeropadding",
	"hbase.zookeeper.quorum", "hbase.columnfamily",
}

func TestNearest(t *testing.T) {
	tests := []struct{ name, want string }{
		{"recordcont", "recordcount"},         // deletion
		{"recrodcount", "recordcount"},        // transposition
		{"operationscount", "operationcount"}, // insertion
		{"RecordCount", "recordcount"},        // case
		{"record_count", "recordcount"},       // separators
		{"status_interval", "status.interval"},
		{"threads", "threadcount"}, // alias
		{"Threads", "threadcount"},
		{"records", "recordcount"},
		{"operations", "operationcount"},
		{"readproprotion", "readproportion"},
		{"tabel", "table"},
		{"zeropading", "zeropadding"},
		{"quorum", "hbase.zookeeper.quorum"},           // contained
		{"fieldlengthdist", "fieldlengthdistribution"}, // prefix
		{"dv", "db"},
		{"xyz", ""},
		{"count", ""}, // too short to guess which *count
		{"fiel", "fieldcount"},
		{"completelyunrelated", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Nearest(tt.name, coreKeys); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	if got := Nearest("threads", []string{"table"}); got != "" {
		t.Errorf("alias suggested %q although its target is not a candidate", got)
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3},
		{"ab", "ba", 1}, {"abcd", "acbd", 1}, {"ca", "abc", 3}, {"café", "cafe", 1},
	} {
		if got := distance(tt.a, tt.b); got != tt.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.d)
		}
		if got := distance(tt.b, tt.a); got != tt.d {
			t.Errorf("distance(%q, %q) = %d, want %d (symmetry)", tt.b, tt.a, got, tt.d)
		}
	}
}

func TestUnknown(t *testing.T) {
	in := "recordcont=1000\nthreads=8\nreadproportion=0.5\nhbase.columnfamly=f\nmystery=1\ntable=t\n"
	vals, err := Parse(strings.NewReader(in), "my.properties")
	if err != nil {
		t.Fatal(err)
	}
	var s Set
	s.Add(vals...)
	s.Add(Value{Key: "opcount", Value: "5", Source: "-p"})
	d := NewDecoder(&s)
	d.Float("readproportion", 0)
	d.Int("recordcount", 0) // absent, but read: a hint candidate
	d.Int("threadcount", 1)
	// "table" is known but unread; hbase keys belong to another decoder.
	hb := NewDecoder(&s)
	hb.String("hbase.columnfamily", "family")
	errs := Unknown(&s, []string{"table", "operationcount"}, d, hb)
	want := []string{
		`property opcount="5" (-p): unknown property (did you mean "operationcount"?)`,
		`property recordcont="1000" (my.properties:1): unknown property (did you mean "recordcount"?)`,
		`property threads="8" (my.properties:2): unknown property (did you mean "threadcount"?)`,
		`property hbase.columnfamly="f" (my.properties:4): unknown property (did you mean "hbase.columnfamily"?)`,
		`property mystery="1" (my.properties:5): unknown property`,
	}
	if got := errors.Join(errs...).Error(); got != strings.Join(want, "\n") {
		t.Errorf("Unknown:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	for _, err := range errs {
		var pe *Error
		if !errors.Is(err, ErrUnknown) || !errors.As(err, &pe) {
			t.Errorf("%v: not an *Error wrapping ErrUnknown", err)
		}
	}
	// The method form sees only its own decoder's reads.
	if n := len(hb.Unknown(nil)); n != 7 {
		t.Errorf("hbase decoder alone reports %d unknown keys, want 7 (every key: it read none present)", n)
	}
}

func TestPrefix(t *testing.T) {
	for _, tt := range []struct{ key, want string }{
		{"hbase.zookeeper.quorum", "hbase"}, {"status.interval", "status"},
		{"recordcount", ""}, {".x", ""}, {"", ""},
	} {
		if got := Prefix(tt.key); got != tt.want {
			t.Errorf("Prefix(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
	var s Set
	s.Add(FromMap(map[string]string{"hbase.a": "1", "hbase.b": "2", "hbasex": "3", "kafka.a": "4"}, "-p")...)
	if got := strings.Join(s.KeysWithPrefix("hbase"), ","); got != "hbase.a,hbase.b" {
		t.Errorf("KeysWithPrefix(hbase) = %s", got)
	}
	if got := Names([]Key{{Name: "a"}}, []Key{{Name: "b"}, {Name: "c"}}); strings.Join(got, ",") != "a,b,c" {
		t.Errorf("Names = %q", got)
	}
}
