package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("testsum", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pkgs := fs.String("pkgs", "./...", "packages to test (space-separated patterns)")
	slow := fs.Duration("slow", 5*time.Second, "name tests that ran longer than this")
	onlyTag := fs.String("only-tag", "", "run only the tests that exist only with this build tag")
	save := fs.String("save", "", "also write the raw go test -json stream to this file")
	noSummary := fs.Bool("no-summary", false, "leave out the final lists")
	summaryOnly := fs.Bool("summary", false, "print the final lists of the saved streams named as arguments; run nothing")
	list := fs.Bool("list", false, "with -only-tag: print the tests it would run, per package; run nothing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	s := newSummary(stdout, *slow)
	if *summaryOnly {
		for _, name := range fs.Args() {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintln(stderr, "testsum:", err)
				return 1
			}
			err = newSummary(io.Discard, *slow).readInto(s, f)
			f.Close()
			if err != nil {
				fmt.Fprintln(stderr, "testsum:", name+":", err)
				return 1
			}
		}
		s.print(stdout)
		return boolCode(s.Failed > 0 || len(s.FailedPkgs) > 0)
	}
	goFlags := fs.Args()
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	var saved io.Writer = io.Discard
	if *save != "" {
		f, err := os.Create(*save)
		if err != nil {
			fmt.Fprintln(stderr, "testsum:", err)
			return 1
		}
		defer f.Close()
		saved = f
	}
	patterns := strings.Fields(*pkgs)
	if *list {
		if *onlyTag == "" {
			fmt.Fprintln(stderr, "testsum: -list needs -only-tag")
			return 2
		}
		sel, err := taggedTests(goCmd, patterns, *onlyTag, buildFlags(goFlags))
		if err != nil {
			fmt.Fprintln(stderr, "testsum:", err)
			return 1
		}
		for _, p := range sel {
			fmt.Fprintf(stdout, "%s: %s\n", p.ImportPath, strings.Join(p.Tests, " "))
		}
		return 0
	}
	failed := false
	if *onlyTag == "" {
		failed = goTest(goCmd, append(append([]string{"test", "-json"}, goFlags...), patterns...), s, saved, stderr) != nil
	} else {
		var err error
		failed, err = runTagged(goCmd, *onlyTag, patterns, goFlags, s, saved, stderr)
		if err != nil {
			fmt.Fprintln(stderr, "testsum:", err)
			return 1
		}
	}
	if !*noSummary {
		s.print(stdout)
	}
	return boolCode(failed || s.Failed > 0 || len(s.FailedPkgs) > 0)
}

// runTagged runs, package by package, only the tests that exist only with
// tag, then checks that exactly those ran.
func runTagged(goCmd, tag string, patterns, goFlags []string, s *summary, saved, stderr io.Writer) (failed bool, err error) {
	for _, f := range goFlags {
		if f == "-tags" || strings.HasPrefix(f, "-tags=") || f == "-run" || strings.HasPrefix(f, "-run=") {
			return false, fmt.Errorf("with -only-tag, testsum sets %s itself", strings.SplitN(f, "=", 2)[0])
		}
	}
	pkgs, err := taggedTests(goCmd, patterns, tag, buildFlags(goFlags))
	if err != nil {
		return false, err
	}
	if len(pkgs) == 0 {
		return false, fmt.Errorf("no test is built only with -tags %s in %s", tag, strings.Join(patterns, " "))
	}
	for _, p := range pkgs {
		args := append([]string{"test", "-json", "-tags", tag, "-run", p.runPattern()}, goFlags...)
		if goTest(goCmd, append(args, p.ImportPath), s, saved, stderr) != nil {
			failed = true
		}
	}
	// Each selected test ran, and nothing else did.
	want := map[testID]bool{}
	for _, p := range pkgs {
		for _, t := range p.Tests {
			want[testID{p.ImportPath, t}] = true
		}
	}
	var missing, extra []string
	for id := range want {
		if !s.ran[id] {
			missing = append(missing, id.String())
		}
	}
	for id := range s.ran {
		if !want[id] {
			extra = append(extra, id.String())
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	if len(missing) > 0 && !failed {
		// (After a failed package, tests after the failure never started.)
		fmt.Fprintf(s.out, "testsum: selected but did not run: %s\n", strings.Join(missing, ", "))
		failed = true
	}
	if len(extra) > 0 {
		fmt.Fprintf(s.out, "testsum: ran but not selected (built without -tags %s too?): %s\n", tag, strings.Join(extra, ", "))
		failed = true
	}
	return failed, nil
}

// buildFlags picks the go test flags that change which files build.
func buildFlags(goFlags []string) []string {
	var out []string
	for _, f := range goFlags {
		if f == "-race" || f == "-msan" || f == "-asan" {
			out = append(out, f)
		}
	}
	return out
}

// goTest runs the go command with args, feeding its standard output to s
// (and saved); its standard error goes to stderr.
func goTest(goCmd string, args []string, s *summary, saved, stderr io.Writer) error {
	cmd := exec.Command(goCmd, args...)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	rerr := s.read(io.TeeReader(out, saved))
	err = cmd.Wait()
	if rerr != nil {
		return rerr
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return err // go test reported failures; the summary has them
	}
	if err != nil {
		fmt.Fprintln(stderr, "testsum:", err)
	}
	return err
}

// readInto reads a saved stream with progress discarded and adds its
// results to dst.
func (s *summary) readInto(dst *summary, r io.Reader) error {
	if err := s.read(r); err != nil {
		return err
	}
	dst.Passed += s.Passed
	dst.Failed += s.Failed
	dst.Skipped += s.Skipped
	dst.Packages += s.Packages
	dst.FailedPkgs = append(dst.FailedPkgs, s.FailedPkgs...)
	dst.Slow = append(dst.Slow, s.Slow...)
	dst.Skips = append(dst.Skips, s.Skips...)
	return nil
}

func boolCode(failed bool) int {
	if failed {
		return 1
	}
	return 0
}
