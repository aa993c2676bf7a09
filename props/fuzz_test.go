package props

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that what it reports is well
// formed (origins, ErrSyntax), and that rendering the entries with FormatLine
// and parsing them again gives back the same keys and values. Seeds: YCSB's
// workload files and syntax corner cases in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte("recordcount=1000\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		vals, err := Parse(bytes.NewReader(data), "in")
		if err != nil && !errors.Is(err, ErrSyntax) {
			t.Fatalf("Parse error %v does not wrap ErrSyntax", err)
		}
		last := 0
		var lines []string
		for _, v := range vals {
			if v.Source != "in" || v.Line <= last || v.Key == "" {
				t.Fatalf("bad entry %+v after line %d", v, last)
			}
			last = v.Line
			lines = append(lines, FormatLine(v.Key, v.Value))
		}
		text := strings.Join(lines, "\n")
		again, err := Parse(strings.NewReader(text), "again")
		if err != nil {
			t.Fatalf("re-parse of\n%s\nfailed: %v", text, err)
		}
		if len(again) != len(vals) {
			t.Fatalf("re-parse gave %d entries, want %d:\n%s", len(again), len(vals), text)
		}
		for i := range vals {
			if again[i].Key != vals[i].Key || again[i].Value != vals[i].Value || again[i].Line != i+1 {
				t.Fatalf("entry %d: re-parsed %q=%q at line %d, want %q=%q at line %d",
					i, again[i].Key, again[i].Value, again[i].Line, vals[i].Key, vals[i].Value, i+1)
			}
		}
		var s Set
		s.Add(vals...)
		if err := s.Dump(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}
