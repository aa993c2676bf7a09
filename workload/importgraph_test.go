package workload

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/gobench/gobench/"

// importRule is one row of DESIGN.md's "Layout and who may import whom":
// the gobench packages a package (matched by prefix) may import, and the
// third-party ones ("std" alone: the standard library only).
type importRule struct {
	pkg     string   // path below the module; a trailing "/" matches the subtree
	gobench []string // allowed gobench packages (trailing "/": subtree; "self": its own subtree)
	extern  []string // allowed non-std import prefixes; nil = any
}

var importRules = []importRule{
	{pkg: "generator", extern: []string{}},
	{pkg: "props", extern: []string{}},
	{pkg: "workloads", extern: []string{}},
	{pkg: "measure", extern: []string{"github.com/HdrHistogram/hdrhistogram-go"}},
	{pkg: "saturation", extern: []string{}},
	{pkg: "yarn", extern: []string{}},
	{pkg: "drivers", gobench: []string{"props"}, extern: []string{}},
	{pkg: "drivers/", gobench: []string{"drivers", "props", "self"}},
	{pkg: "engine", gobench: []string{"drivers", "generator", "measure", "props"}},
	{pkg: "workload/", gobench: []string{"engine", "generator", "drivers", "measure", "props"}},
	{pkg: "workload", gobench: []string{"engine", "workload/", "drivers", "measure", "props"}},
	{pkg: "report", gobench: []string{"measure"}},
	{pkg: "testenv/", gobench: []string{"drivers", "drivers/", "props", "self"}},
	{pkg: "deploy/kubernetes", extern: []string{}}, // code only in its test: the manifests checked with k8s.io/api
	{pkg: "cmd/", gobench: []string{"*"}},
}

// ruleFor returns the most specific rule for pkg (a path below the module).
func ruleFor(pkg string) (importRule, bool) {
	best, found := importRule{}, false
	for _, r := range importRules {
		match := r.pkg == pkg || strings.HasSuffix(r.pkg, "/") && strings.HasPrefix(pkg, r.pkg)
		if match && (!found || len(r.pkg) > len(best.pkg) || r.pkg == pkg) {
			best, found = r, true
		}
	}
	return best, found
}

func (r importRule) allows(pkg, imp string) bool {
	for _, a := range r.gobench {
		switch {
		case a == "*", a == imp:
			return true
		case a == "self":
			root := strings.TrimSuffix(r.pkg, "/")
			// its own subtree: drivers/hbase may import drivers/hbase/pb
			if top := topOf(pkg, root); top != "" && (imp == top || strings.HasPrefix(imp, top+"/")) {
				return true
			}
		case strings.HasSuffix(a, "/") && strings.HasPrefix(imp, a):
			return true
		}
	}
	return false
}

// topOf returns the first path element of pkg below root, with root
// ("drivers/hbase" for "drivers/hbase/hbclient" below "drivers").
func topOf(pkg, root string) string {
	rest, ok := strings.CutPrefix(pkg, root+"/")
	if !ok {
		return ""
	}
	first, _, _ := strings.Cut(rest, "/")
	return root + "/" + first
}

func isStd(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

// checkImports returns one line per import that breaks the rules.
func checkImports(graph map[string][]string) []string {
	var bad []string
	for pkg, imps := range graph {
		r, ok := ruleFor(pkg)
		if !ok {
			bad = append(bad, pkg+": no row in DESIGN.md's import table")
			continue
		}
		for _, imp := range imps {
			if sub, ok := strings.CutPrefix(imp, module); ok {
				if !r.allows(pkg, sub) {
					bad = append(bad, pkg+" imports "+sub)
				}
				continue
			}
			if isStd(imp) || r.extern == nil {
				continue
			}
			allowed := false
			for _, e := range r.extern {
				if imp == e || strings.HasPrefix(imp, e+"/") {
					allowed = true
				}
			}
			if !allowed {
				bad = append(bad, pkg+" imports "+imp+" (not std)")
			}
		}
	}
	return bad
}

// TestImportGraph checks every package's imports (tests excluded) against
// DESIGN.md's table, with go list, so the shape cannot drift silently.
func TestImportGraph(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	graph := map[string][]string{}
	for _, tags := range []string{"", "integration"} {
		cmd := exec.Command("go", "list", "-tags", tags, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			pkg, ok := strings.CutPrefix(f[0], module)
			if !ok {
				continue // the module root itself has no package
			}
			graph[pkg] = append(graph[pkg], f[1:]...)
		}
	}
	if len(graph) < 20 {
		t.Fatalf("go list found only %d packages", len(graph))
	}
	for _, b := range checkImports(graph) {
		t.Error(b)
	}
}

// The check itself catches what it must: measure importing workload, a
// driver importing engine, a kind importing another kind's parent.
func TestImportGraphCatchesViolations(t *testing.T) {
	for _, c := range []struct {
		pkg, imp string
	}{
		{"measure", module + "workload"},
		{"measure", "github.com/spf13/pflag"},
		{"drivers/kafka", module + "engine"},
		{"drivers/hbase/hbclient", module + "drivers/kafka"},
		{"workload/core", module + "workload"},
		{"engine", module + "workload/core"},
		{"generator", module + "props"},
		{"props", "golang.org/x/text"},
		{"saturation", module + "measure"},
	} {
		if bad := checkImports(map[string][]string{c.pkg: {c.imp}}); len(bad) != 1 {
			t.Errorf("%s importing %s: %v, want one violation", c.pkg, c.imp, bad)
		}
	}
	for _, c := range []struct {
		pkg, imp string
	}{
		{"drivers/hbase/hbclient", module + "drivers/hbase/pb"},
		{"workload", module + "workload/dfsio"},
		{"workload/dfsio", module + "engine"},
		{"cmd/gobench", module + "workload"},
		{"measure", "github.com/HdrHistogram/hdrhistogram-go"},
	} {
		if bad := checkImports(map[string][]string{c.pkg: {c.imp}}); len(bad) != 0 {
			t.Errorf("%s importing %s reported: %v", c.pkg, c.imp, bad)
		}
	}
}
