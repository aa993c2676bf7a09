package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// event is one line of `go test -json` (a test2json TestEvent, or a build
// event, which has ImportPath instead of Package).
type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string
	FailedBuild string
}

// testID names one test (or, with Test empty, one package's test binary).
type testID struct{ Package, Test string }

func (id testID) String() string { return id.Package + " " + id.Test }

// skipped is a skipped test and why.
type skipped struct {
	testID
	Reason string
}

// timed is a test and how long it ran.
type timed struct {
	testID
	Elapsed time.Duration
}

// summary reads events and keeps what the final lists need. Feed it with
// line; it prints progress (package lines, failed tests' output) to out.
type summary struct {
	out  io.Writer
	slow time.Duration

	outputs map[testID]*strings.Builder // of tests (and packages) still running
	ran     map[testID]bool             // top-level tests that started

	Passed, Failed, Skipped int
	FailedPkgs              []string
	Slow                    []timed
	Skips                   []skipped
	Packages                int
}

func newSummary(out io.Writer, slow time.Duration) *summary {
	return &summary{out: out, slow: slow, outputs: make(map[testID]*strings.Builder), ran: make(map[testID]bool)}
}

// line handles one line of go test's standard output. Lines that are not
// JSON (go test's own messages) are printed as they are.
func (s *summary) line(b []byte) {
	var e event
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &e) != nil {
		fmt.Fprintf(s.out, "%s\n", b)
		return
	}
	s.event(e)
}

func (s *summary) event(e event) {
	if e.ImportPath != "" { // build output: compiler and vet messages
		if e.Action == "build-output" {
			io.WriteString(s.out, e.Output)
		}
		return
	}
	id := testID{e.Package, e.Test}
	switch e.Action {
	case "run":
		if !strings.Contains(e.Test, "/") {
			s.ran[id] = true
		}
	case "output":
		b := s.outputs[id]
		if b == nil {
			b = new(strings.Builder)
			s.outputs[id] = b
		}
		b.WriteString(e.Output)
	case "pass", "fail", "skip":
		s.end(id, e)
	}
}

// end handles the end of a test or of a package.
func (s *summary) end(id testID, e event) {
	elapsed := time.Duration(e.Elapsed * float64(time.Second))
	out := s.outputs[id]
	delete(s.outputs, id)
	if id.Test == "" {
		s.endPackage(id, e, elapsed, out)
		return
	}
	if elapsed > s.slow {
		s.Slow = append(s.Slow, timed{id, elapsed})
	}
	switch e.Action {
	case "pass":
		s.Passed++
	case "skip":
		s.Skipped++
		s.Skips = append(s.Skips, skipped{id, skipReason(out)})
	case "fail":
		s.Failed++
		if out != nil {
			io.WriteString(s.out, out.String())
		}
	}
}

func (s *summary) endPackage(id testID, e event, elapsed time.Duration, out *strings.Builder) {
	s.Packages++
	switch {
	case e.Action == "skip":
		fmt.Fprintf(s.out, "?    %s [no tests]\n", id.Package)
	case e.Action == "pass":
		fmt.Fprintf(s.out, "ok   %s %s\n", id.Package, seconds(elapsed))
	default:
		// A failed test printed its output already; what is left is the
		// package's own (a panic, a timeout, a build failure) and that of
		// tests that never ended.
		if out != nil {
			io.WriteString(s.out, keepUseful(out.String()))
		}
		for tid, b := range s.outputs {
			if tid.Package == id.Package {
				io.WriteString(s.out, b.String())
				delete(s.outputs, tid)
			}
		}
		s.FailedPkgs = append(s.FailedPkgs, id.Package)
		why := ""
		if e.FailedBuild != "" {
			why = " [build failed: " + e.FailedBuild + "]"
		}
		fmt.Fprintf(s.out, "FAIL %s %s%s\n", id.Package, seconds(elapsed), why)
	}
}

// keepUseful drops the lines go test prints for every package.
func keepUseful(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t == "PASS" || t == "FAIL" || strings.HasPrefix(t, "ok  \t") || strings.HasPrefix(t, "FAIL\t") {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// skipReason is what a skipped test logged, without the framing lines.
func skipReason(out *strings.Builder) string {
	if out == nil {
		return ""
	}
	var parts []string
	for _, l := range strings.Split(out.String(), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		parts = append(parts, t)
	}
	r := strings.Join(parts, " | ")
	if len(r) > 300 {
		r = r[:297] + "..."
	}
	return r
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }

// read feeds every line of r to s.
func (s *summary) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		s.line(sc.Bytes())
	}
	return sc.Err()
}

// print writes the final lists.
func (s *summary) print(w io.Writer) {
	slices.SortFunc(s.Slow, func(a, b timed) int { return cmp.Compare(b.Elapsed, a.Elapsed) })
	if len(s.Slow) > 0 {
		fmt.Fprintf(w, "\nSlow tests (over %v), slowest first:\n", s.slow)
		for _, t := range s.Slow {
			fmt.Fprintf(w, "  %7s  %s\n", seconds(t.Elapsed), t.testID)
		}
	}
	if len(s.Skips) > 0 {
		fmt.Fprintf(w, "\nSkipped tests:\n")
		for _, t := range s.Skips {
			fmt.Fprintf(w, "  %s: %s\n", t.testID, t.Reason)
		}
	}
	fmt.Fprintf(w, "\n%d passed, %d failed, %d skipped in %d packages", s.Passed, s.Failed, s.Skipped, s.Packages)
	if len(s.FailedPkgs) > 0 {
		fmt.Fprintf(w, "; FAILED: %s", strings.Join(s.FailedPkgs, " "))
	}
	fmt.Fprintln(w)
}
