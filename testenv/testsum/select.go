package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tagged is one package's tests that exist only with the tag.
type tagged struct {
	ImportPath string
	Tests      []string // Test and Fuzz functions, sorted
}

// runPattern is the -run value that selects exactly p's tests.
func (p tagged) runPattern() string { return "^(" + strings.Join(p.Tests, "|") + ")$" }

// taggedTests lists, for the packages matching pkgs, the Test and Fuzz
// functions declared in test files that `go list` includes with the tag and
// leaves out without it. buildFlags (-race, ...) are passed to go list, so
// files selected by the race tag count the same way as in the run.
func taggedTests(goCmd string, pkgs []string, tag string, buildFlags []string) ([]tagged, error) {
	without, err := testFiles(goCmd, pkgs, buildFlags)
	if err != nil {
		return nil, err
	}
	with, err := testFiles(goCmd, pkgs, append(slices.Clone(buildFlags), "-tags", tag))
	if err != nil {
		return nil, err
	}
	var out []tagged
	for _, p := range with {
		base := map[string]bool{}
		for _, q := range without {
			if q.ImportPath == p.ImportPath {
				for _, f := range q.Files {
					base[f] = true
				}
			}
		}
		var tests []string
		for _, f := range p.Files {
			if base[f] {
				continue
			}
			names, err := testFuncs(f)
			if err != nil {
				return nil, err
			}
			tests = append(tests, names...)
		}
		if len(tests) > 0 {
			slices.Sort(tests)
			out = append(out, tagged{p.ImportPath, tests})
		}
	}
	return out, nil
}

type pkgFiles struct {
	ImportPath string
	Files      []string // absolute paths of the _test.go files of the package and its _test package
}

// testFiles asks go list for the test files of pkgs.
func testFiles(goCmd string, pkgs, buildFlags []string) ([]pkgFiles, error) {
	args := append([]string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .TestGoFiles \",\"}}\t{{join .XTestGoFiles \",\"}}\t{{if .Error}}{{.Error}}{{end}}"}, buildFlags...)
	args = append(args, pkgs...)
	cmd := exec.Command(goCmd, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	var out []pkgFiles
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("go list: unexpected line %q", sc.Text())
		}
		if f[4] != "" {
			return nil, fmt.Errorf("go list: %s: %s", f[0], f[4])
		}
		p := pkgFiles{ImportPath: f[0]}
		for _, list := range f[2:4] {
			for _, name := range strings.Split(list, ",") {
				if name != "" {
					p.Files = append(p.Files, filepath.Join(f[1], name))
				}
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// testFuncs returns the Test and Fuzz functions go test would run from the
// file, and refuses Examples (they run only with an output comment).
func testFuncs(path string) ([]string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil {
			continue
		}
		name := fd.Name.Name
		switch {
		case name == "TestMain":
		case isTestName(name, "Test"), isTestName(name, "Fuzz"):
			names = append(names, name)
		case isTestName(name, "Example"):
			return nil, fmt.Errorf("%s: %s: an Example in a file only built with the tag is not supported by testsum", path, name)
		}
	}
	return names, nil
}

// isTestName reports whether name is prefix followed by nothing or by a
// character that is not lower case, go test's rule.
func isTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}
