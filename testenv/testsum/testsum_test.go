package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module writes a Go module with the given files into a new directory and
// makes it the working directory of the test.
func module(t *testing.T, files map[string]string) {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
}

// tagModule has integration tests in files with several constraints, unit
// tests beside them, and one package with unit tests only.
var tagModule = map[string]string{
	"a/a.go": "package a\n",
	"a/unit_test.go": `package a
import "testing"
func TestMain(m *testing.M) { m.Run() }
func TestUnit(t *testing.T) {}
func BenchmarkUnit(b *testing.B) {}
`,
	"a/int_test.go": `//go:build integration

package a
import "testing"
func TestInt1(t *testing.T) {}
func TestInt2(t *testing.T) { t.Run("sub", func(t *testing.T) {}) }
func FuzzInt(f *testing.F) { f.Add(1); f.Fuzz(func(t *testing.T, i int) {}) }
func helper() {}
type x struct{}
func (x) TestMethod() {}
`,
	"a/notint_test.go": `//go:build !integration

package a
import "testing"
func TestOnlyWithoutTag(t *testing.T) {}
`,
	"a/ext_int_test.go": `//go:build integration && (linux || !linux)

package a_test
import "testing"
func TestExtInt(t *testing.T) {}
`,
	"b/b.go": "package b\n",
	"b/b_test.go": `package b
import "testing"
func TestB(t *testing.T) {}
`,
}

func TestTaggedTests(t *testing.T) {
	module(t, tagModule)
	got, err := taggedTests("go", []string{"./..."}, "integration", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []tagged{{"example.com/m/a", []string{"FuzzInt", "TestExtInt", "TestInt1", "TestInt2"}}}
	if !slices.EqualFunc(got, want, func(a, b tagged) bool { return a.ImportPath == b.ImportPath && slices.Equal(a.Tests, b.Tests) }) {
		t.Errorf("taggedTests = %v, want %v", got, want)
	}
}

// The integration pass runs the tagged tests once each and no other; the
// unit pass runs the others.
func TestOnlyTagRunsEachTestOnce(t *testing.T) {
	module(t, tagModule)
	var out, errb bytes.Buffer
	if code := run([]string{"-only-tag", "integration", "-save", "int.json", "--", "-count=1"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "6 passed, 0 failed, 0 skipped in 1 packages") { // 4, TestInt2/sub, FuzzInt/seed#0
		t.Errorf("integration pass:\n%s", out.String())
	}
	saved, err := os.ReadFile("int.json")
	if err != nil {
		t.Fatal(err)
	}
	ran := ranTests(t, saved)
	if want := []string{"FuzzInt", "TestExtInt", "TestInt1", "TestInt2"}; !slices.Equal(ran, want) {
		t.Errorf("integration pass ran %v, want %v", ran, want)
	}

	out.Reset()
	if code := run([]string{"-save", "unit.json", "--", "-count=1"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	saved, _ = os.ReadFile("unit.json")
	if ran, want := ranTests(t, saved), []string{"TestB", "TestOnlyWithoutTag", "TestUnit"}; !slices.Equal(ran, want) {
		t.Errorf("unit pass ran %v, want %v", ran, want)
	}
}

// ranTests lists the top-level tests a saved stream started.
func ranTests(t *testing.T, stream []byte) []string {
	t.Helper()
	s := newSummary(&bytes.Buffer{}, 0)
	if err := s.read(bytes.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	var names []string
	for id := range s.ran {
		names = append(names, id.Test)
	}
	slices.Sort(names)
	return names
}

// A test in a tagged file that -run cannot reach is reported, not lost.
func TestOnlyTagRefusesExamples(t *testing.T) {
	module(t, map[string]string{
		"a/a.go":        "package a\n",
		"a/int_test.go": "//go:build integration\n\npackage a\nimport \"fmt\"\nfunc ExampleA() { fmt.Println(1) }\n",
	})
	var out, errb bytes.Buffer
	if code := run([]string{"-only-tag", "integration"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "ExampleA") {
		t.Errorf("exit %d, stderr %q; want a failure naming ExampleA", code, errb.String())
	}
}

func TestSummary(t *testing.T) {
	module(t, map[string]string{
		"p/p.go": "package p\n",
		"p/p_test.go": `package p
import ("testing"; "time")
func TestFast(t *testing.T) {}
func TestSlow(t *testing.T) { time.Sleep(300 * time.Millisecond) }
func TestSkipped(t *testing.T) { t.Skip("needs a unicorn") }
func TestSub(t *testing.T) {
	t.Run("skips", func(t *testing.T) { t.Skipf("sub %d", 7) })
	t.Run("fails", func(t *testing.T) { t.Log("context line"); t.Error("boom") })
}
`,
	})
	var out, errb bytes.Buffer
	code := run([]string{"-slow", "200ms", "-save", "p.json", "--", "-count=1"}, &out, &errb)
	o := out.String()
	if code != 1 {
		t.Errorf("exit %d with a failed test, want 1", code)
	}
	for _, want := range []string{
		"context line", "boom", "--- FAIL: TestSub/fails", // the failed test's whole output
		"FAIL example.com/m/p",
		"Slow tests (over 200ms)", "example.com/m/p TestSlow",
		"Skipped tests:", "example.com/m/p TestSkipped: p_test.go:5: needs a unicorn",
		"example.com/m/p TestSub/skips: p_test.go:7: sub 7",
		"2 passed, 2 failed, 2 skipped in 1 packages; FAILED: example.com/m/p",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	if strings.Contains(o, "TestFast") {
		t.Errorf("a fast passing test is named:\n%s", o)
	}
	// The saved stream summarises to the same lists.
	out.Reset()
	if code := run([]string{"-slow", "200ms", "-summary", "p.json"}, &out, &errb); code != 1 || !strings.Contains(out.String(), "TestSub/skips: p_test.go:7: sub 7") {
		t.Errorf("-summary: exit %d\n%s", code, out.String())
	}
}

func TestBuildFailureIsShown(t *testing.T) {
	module(t, map[string]string{
		"p/p.go":      "package p\n",
		"p/p_test.go": "package p\nimport \"testing\"\nfunc TestX(t *testing.T) { undefined() }\n",
	})
	var out, errb bytes.Buffer
	code := run([]string{"--", "-count=1"}, &out, &errb)
	if all := out.String() + errb.String(); code != 1 || !strings.Contains(all, "undefined") {
		t.Errorf("exit %d, want 1 and the compiler's message:\n%s", code, all)
	}
}

// A test that never ends (here: past -timeout) is shown with the panic,
// although it never reports its own failure.
func TestTimeoutIsShown(t *testing.T) {
	module(t, map[string]string{
		"p/p.go":      "package p\n",
		"p/p_test.go": "package p\nimport (\"testing\"; \"time\")\nfunc TestHangs(t *testing.T) { t.Log(\"started\"); time.Sleep(time.Minute) }\n",
	})
	var out, errb bytes.Buffer
	code := run([]string{"--", "-count=1", "-timeout=1s"}, &out, &errb)
	o := out.String()
	for _, want := range []string{"panic: test timed out", "TestHangs", "started", "FAIL example.com/m/p"} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
}
