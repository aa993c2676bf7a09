package props

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// decoderFor returns a decoder over one key=value from "my.properties" line 3.
func decoderFor(key, val string) *Decoder {
	var s Set
	s.Add(Value{Key: key, Value: val, Source: "my.properties", Line: 3})
	return NewDecoder(&s)
}

// check asserts the decoder's recorded error: none when wantErr is "",
// else exactly wantErr, wrapping sentinel.
func check(t *testing.T, what string, d *Decoder, wantErr string, sentinel error) {
	t.Helper()
	err := d.Err()
	switch {
	case wantErr == "" && err != nil:
		t.Errorf("%s: unexpected error %v", what, err)
	case wantErr != "" && err == nil:
		t.Errorf("%s: no error, want %s", what, wantErr)
	case wantErr != "" && err.Error() != wantErr:
		t.Errorf("%s: error\n  %s\nwant\n  %s", what, err, wantErr)
	case wantErr != "" && !errors.Is(err, sentinel):
		t.Errorf("%s: error %v does not wrap %v", what, err, sentinel)
	}
}

func TestIntGetters(t *testing.T) {
	tests := []struct {
		val      string
		min, max int64
		want     int64
		err      string
		sentinel error
	}{
		{"1000", 0, math.MaxInt64, 1000, "", nil},
		{"+7", 0, math.MaxInt64, 7, "", nil},
		{"-7", math.MinInt64, math.MaxInt64, -7, "", nil},
		{"500 \t", 1, math.MaxInt64, 500, "", nil}, // trailing blanks ignored, unlike Java
		{"10x0", 0, math.MaxInt64, 42, `property n="10x0" (my.properties:3): invalid integer; allowed: a whole number >= 0`, ErrInvalid},
		{"", 0, math.MaxInt64, 42, `property n="" (my.properties:3): invalid integer; allowed: a whole number >= 0`, ErrInvalid},
		{"1e6", math.MinInt64, math.MaxInt64, 42, `property n="1e6" (my.properties:3): invalid integer; allowed: a whole number`, ErrInvalid},
		{"0", 1, 10000, 42, `property n="0" (my.properties:3): out of range; allowed: a whole number from 1 to 10000`, ErrRange},
		{"5", math.MinInt64, 4, 42, `property n="5" (my.properties:3): out of range; allowed: a whole number <= 4`, ErrRange},
		{"99999999999999999999", 0, math.MaxInt64, 42, `property n="99999999999999999999" (my.properties:3): out of range; allowed: a whole number from 0 to 9223372036854775807`, ErrRange},
	}
	for _, tt := range tests {
		d := decoderFor("n", tt.val)
		if got := d.Int64Range("n", 42, tt.min, tt.max); got != tt.want {
			t.Errorf("Int64Range(%q, %d, %d) = %d, want %d", tt.val, tt.min, tt.max, got, tt.want)
		}
		check(t, "Int64Range("+tt.val+")", d, tt.err, tt.sentinel)
	}
	// int flavours share the code; spot-check them and the absent-key default.
	d := decoderFor("n", "12")
	if d.Int("n", 0) != 12 || d.IntRange("n", 0, 0, 20) != 12 || d.Int64("n", 0) != 12 || d.Int("absent", 9) != 9 {
		t.Errorf("Int/IntRange/Int64 disagree on %q", "12")
	}
	check(t, "Int(12)", d, "", nil)
	if !d.Used("n") || !d.Used("absent") || d.Used("other") {
		t.Errorf("Used: n=%v absent=%v other=%v, want true true false", d.Used("n"), d.Used("absent"), d.Used("other"))
	}
	if got := d.UsedKeys(); !slices.Equal(got, []string{"absent", "n"}) {
		t.Errorf("UsedKeys = %q", got)
	}
}

func TestFloatGetters(t *testing.T) {
	tests := []struct {
		val      string
		min, max float64
		want     float64
		err      string
	}{
		{"0.95", 0, 1, 0.95, ""},
		{"1e-3 ", 0, 1, 0.001, ""},
		{"1.5", 0, 1, -1, `property f="1.5" (my.properties:3): out of range; allowed: a number from 0 to 1`},
		{"abc", 0, 1, -1, `property f="abc" (my.properties:3): invalid number; allowed: a number from 0 to 1`},
		{"NaN", math.Inf(-1), math.Inf(1), -1, `property f="NaN" (my.properties:3): invalid number; allowed: a finite number`},
		{"Infinity", 0, math.Inf(1), -1, `property f="Infinity" (my.properties:3): invalid number; allowed: a number >= 0`},
	}
	for _, tt := range tests {
		d := decoderFor("f", tt.val)
		if got := d.FloatRange("f", -1, tt.min, tt.max); got != tt.want {
			t.Errorf("FloatRange(%q) = %g, want %g", tt.val, got, tt.want)
		}
		sentinel := ErrInvalid
		if strings.Contains(tt.err, "out of range") {
			sentinel = ErrRange
		}
		check(t, "FloatRange("+tt.val+")", d, tt.err, sentinel)
	}
	if d := decoderFor("f", "2.5"); d.Float("f", 0) != 2.5 || d.Float("g", 7) != 7 {
		t.Error("Float(2.5) or its default is wrong")
	}
}

func TestBoolEnumString(t *testing.T) {
	for _, tt := range []struct {
		val  string
		want bool
		err  string
	}{
		{"true", true, ""}, {"FALSE", false, ""}, {"True ", true, ""},
		{"yes", true, `property b="yes" (my.properties:3): invalid boolean; allowed: true or false`},
		{"1", true, `property b="1" (my.properties:3): invalid boolean; allowed: true or false`},
	} {
		d := decoderFor("b", tt.val)
		if got := d.Bool("b", true); got != tt.want {
			t.Errorf("Bool(%q) = %v, want %v", tt.val, got, tt.want)
		}
		check(t, "Bool("+tt.val+")", d, tt.err, ErrInvalid)
	}

	dists := []string{"uniform", "zipfian", "latest", "hotspot", "sequential", "exponential"}
	for _, tt := range []struct{ val, want, err string }{
		{"zipfian", "zipfian", ""},
		{"Zipfian", "zipfian", ""},
		{"latest  ", "latest", ""},
		{"zipfan", "uniform", `property d="zipfan" (my.properties:3): invalid value; allowed: uniform, zipfian, latest, hotspot, sequential, exponential (did you mean "zipfian"?)`},
		{"gaussian", "uniform", `property d="gaussian" (my.properties:3): invalid value; allowed: uniform, zipfian, latest, hotspot, sequential, exponential`},
	} {
		d := decoderFor("d", tt.val)
		if got := d.Enum("d", "uniform", dists...); got != tt.want {
			t.Errorf("Enum(%q) = %q, want %q", tt.val, got, tt.want)
		}
		check(t, "Enum("+tt.val+")", d, tt.err, ErrInvalid)
	}

	d := decoderFor("table", "usertable \t")
	if got := d.String("table", "x"); got != "usertable" {
		t.Errorf("String(%q) = %q, want trailing blanks dropped", "usertable \t", got)
	}
	if got := d.String("absent", "def"); got != "def" {
		t.Errorf("String(absent) = %q, want def", got)
	}
	if v, _ := d.Lookup("table"); v.Value != "usertable \t" {
		t.Errorf("Lookup kept %q, want the raw value", v.Value)
	}
}

func TestDuration(t *testing.T) {
	allowed := "; allowed: a duration >= 0: a number of seconds or Go duration text like 90s, 1m30s, 250ms"
	for _, tt := range []struct {
		val  string
		want time.Duration
		err  string
	}{
		{"600", 600 * time.Second, ""},
		{"1.5", 1500 * time.Millisecond, ""},
		{"0", 0, ""},
		{"90s", 90 * time.Second, ""},
		{"1m30s ", 90 * time.Second, ""},
		{"-5", time.Minute, `property t="-5" (my.properties:3): out of range` + allowed},
		{"-5s", time.Minute, `property t="-5s" (my.properties:3): out of range` + allowed},
		{"10 minutes", time.Minute, `property t="10 minutes" (my.properties:3): invalid duration` + allowed},
		{"1e300", time.Minute, `property t="1e300" (my.properties:3): out of range` + allowed},
	} {
		d := decoderFor("t", tt.val)
		if got := d.Duration("t", time.Minute, time.Second); got != tt.want {
			t.Errorf("Duration(%q) = %v, want %v", tt.val, got, tt.want)
		}
		sentinel := ErrInvalid
		if strings.Contains(tt.err, "out of range") {
			sentinel = ErrRange
		}
		check(t, "Duration("+tt.val+")", d, tt.err, sentinel)
	}
	d := decoderFor("t", "250")
	if got := d.Duration("t", 0, time.Millisecond); got != 250*time.Millisecond {
		t.Errorf("Duration(250, unit ms) = %v", got)
	}
}

func TestBytes(t *testing.T) {
	for _, tt := range []struct {
		val  string
		unit int64
		want int64
		err  string
	}{
		{"4096", 1, 4096, ""},
		{"10GB", 1, 10 << 30, ""},
		{"64MB", 1, 64 << 20, ""},
		{"1g", 1, 1 << 30, ""},
		{"300KB", 1, 300 << 10, ""},
		{"2 TiB", 1, 2 << 40, ""},
		{"1.5GB", 1, 3 << 29, ""},
		{"7b", 1, 7, ""},
		{"100", MB, 100 << 20, ""}, // TestDFSIO: no unit means MB
		{"100kb", MB, 100 << 10, ""},
		{"10XB", 1, -1, `property s="10XB" (my.properties:3): invalid size; allowed: a size >= 0 in bytes, or with a binary unit: 300KB, 64MB, 10GB, 1g (1KB = 1024 bytes)`},
		{"-1", 1, -1, `property s="-1" (my.properties:3): invalid size; allowed: a size >= 0 in bytes, or with a binary unit: 300KB, 64MB, 10GB, 1g (1KB = 1024 bytes)`},
		{"GB", MB, -1, `property s="GB" (my.properties:3): invalid size; allowed: a size >= 0 in MB, or with a binary unit: 300KB, 64MB, 10GB, 1g (1KB = 1024 bytes)`},
		{"0.5b", 1, -1, `property s="0.5b" (my.properties:3): invalid size; allowed: a size >= 0 in bytes, or with a binary unit: 300KB, 64MB, 10GB, 1g (1KB = 1024 bytes)`},
		{"9000000PB", 1, -1, `property s="9000000PB" (my.properties:3): out of range; allowed: a size >= 0 in bytes, or with a binary unit: 300KB, 64MB, 10GB, 1g (1KB = 1024 bytes)`},
	} {
		d := decoderFor("s", tt.val)
		if got := d.BytesUnit("s", -1, tt.unit); got != tt.want {
			t.Errorf("BytesUnit(%q, %d) = %d, want %d", tt.val, tt.unit, got, tt.want)
		}
		sentinel := ErrInvalid
		if strings.Contains(tt.err, "out of range") {
			sentinel = ErrRange
		}
		check(t, "BytesUnit("+tt.val+")", d, tt.err, sentinel)
	}
	if d := decoderFor("s", "1KB"); d.Bytes("s", 0) != 1024 || d.Bytes("absent", 5) != 5 {
		t.Error("Bytes(1KB) or its default is wrong")
	}
}

func TestLists(t *testing.T) {
	d := decoderFor("p", " 50, 95 ,99.9")
	if got := d.Floats("p", nil); !slices.Equal(got, []float64{50, 95, 99.9}) {
		t.Errorf("Floats = %v", got)
	}
	def := []float64{1}
	for _, bad := range []string{"50,,99", "", "50;95"} {
		d := decoderFor("p", bad)
		if got := d.Floats("p", def); !slices.Equal(got, def) {
			t.Errorf("Floats(%q) = %v, want the default", bad, got)
		}
		check(t, "Floats("+bad+")", d, `property p="`+bad+`" (my.properties:3): invalid number list; allowed: comma-separated numbers, e.g. 50,95,99.9`, ErrInvalid)
	}
	d = decoderFor("l", "NOT_FOUND, ERROR,,")
	if got := d.Strings("l", nil); !slices.Equal(got, []string{"NOT_FOUND", "ERROR"}) {
		t.Errorf("Strings = %q", got)
	}
	if got := decoderFor("l", "").Strings("l", []string{"x"}); got == nil || len(got) != 0 {
		t.Errorf("Strings(empty) = %#v, want empty non-nil", got)
	}
}

func TestErrCollectsSortedAndDeduplicated(t *testing.T) {
	var s Set
	s.Add(
		Value{Key: "threadcount", Value: "many", Source: "b.properties", Line: 9},
		Value{Key: "recordcount", Value: "10x0", Source: "a.properties", Line: 7},
		Value{Key: "operationcount", Value: "x", Source: "a.properties", Line: 2},
		Value{Key: "insertcount", Value: "2000", Source: "-p"},
	)
	d := NewDecoder(&s)
	d.Int("threadcount", 1)
	d.Int("threadcount", 1) // read twice: reported once
	d.Int64("recordcount", 0)
	d.Int("operationcount", 0)
	d.Fail(errors.New("plain error"))
	d.Failf("insertcount", "insertstart + insertcount (%d) exceeds recordcount (%d)", 2000, 1000)
	d.Require("workload")
	if n := len(d.Errs()); n != 7 {
		t.Errorf("Errs() has %d errors, want 7 (duplicates kept)", n)
	}
	want := strings.Join([]string{
		`property insertcount="2000" (-p): insertstart + insertcount (2000) exceeds recordcount (1000)`,
		`property operationcount="x" (a.properties:2): invalid integer; allowed: a whole number`,
		`property recordcount="10x0" (a.properties:7): invalid integer; allowed: a whole number`,
		`property threadcount="many" (b.properties:9): invalid integer; allowed: a whole number`,
		`plain error`,
		`property workload: required but not set`,
	}, "\n")
	if got := d.Err().Error(); got != want {
		t.Errorf("Err():\n%s\nwant:\n%s", got, want)
	}
	if !errors.Is(d.Err(), ErrMissing) || !errors.Is(d.Err(), ErrInvalid) {
		t.Error("Err() does not wrap ErrMissing and ErrInvalid")
	}
	var pe *Error
	if !errors.As(d.Err(), &pe) || pe.Key != "insertcount" || pe.Source != "-p" {
		t.Errorf("errors.As(*Error) = %+v, want the insertcount error first", pe)
	}
	if NewDecoder(&s).Err() != nil {
		t.Error("a fresh decoder reports an error")
	}
}
