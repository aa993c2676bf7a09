package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the gobench checkout this package sits in.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// The test command checks its tools first and names what is missing: here
// a C compiler, which go test -race needs.
func TestCheckNamesAMissingCCompiler(t *testing.T) {
	cmd := exec.Command(filepath.Join(repoRoot(t), "testenv", "check.sh"), "unit")
	cmd.Env = append(os.Environ(), "CC=/nonexistent/cc")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("check.sh unit passed without a C compiler:\n%s", out)
	}
	for _, want := range []string{"C compiler", "-race", "CGO_ENABLED=1", "/nonexistent/cc"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("check.sh output lacks %q:\n%s", want, out)
		}
	}
}

// The Makefile's test targets run the check first, run the unit tests once
// with -race, and give the integration pass only the integration tests.
func TestMakefileRunsEachPassOnce(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make: %v", err)
	}
	dry := func(target string) string {
		cmd := exec.Command("make", "-n", "--no-print-directory", target)
		cmd.Dir = repoRoot(t)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "GO=") && !strings.HasPrefix(kv, "PKGS=") && !strings.HasPrefix(kv, "MAKEFLAGS=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		return string(out)
	}
	unit := dry("test-unit")
	integ := dry("test-integration")
	for _, c := range []struct{ in, want string }{
		{unit, "testenv/check.sh unit"},
		{unit, "go vet ./..."},
		{unit, "go vet -tags integration ./..."},
		{unit, "CGO_ENABLED=1 go run ./testenv/testsum"},
		{unit, "-- -race -count=1"},
		{integ, "testenv/check.sh all"},
		{integ, "-only-tag integration -- -race -count=1"},
	} {
		if !strings.Contains(c.in, c.want) {
			t.Errorf("make -n lacks %q:\n%s", c.want, c.in)
		}
	}
	if strings.Contains(integ, "go test") {
		t.Errorf("the integration pass calls go test directly (it would run the unit tests again):\n%s", integ)
	}
}
