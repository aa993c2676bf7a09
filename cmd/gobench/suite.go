package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	rep "github.com/gobench/gobench/report"
)

const suiteAbout = `An acceptance run in one command: the file lists the steps, one per line, each
a gobench command line (disk, net -c, dfsio, load, run, producer-perf,
consumer-perf, hive), optionally preceded by a label and a colon. gobench runs
them in order, in this process, each through its command's own flags, then
writes one HTML page in which every throughput is shown against the hardware
ceilings the disk and net steps measured ("dfsio write: 38 % of the disk write
ceiling measured at 10:02"). A failed step is reported and the run goes on;
the exit status is 1 when any step failed. Lines "title TEXT" and
"report FILE" set the page's title and file (-title and -o win).
Run 'gobench suite -example' for a file to start from.`

const suiteExample = `# gobench acceptance run: one step per line, "[label:] command args".
title  Cluster acceptance run
report acceptance.html

# The ceilings first: every data disk at once, then the network both ways.
disks:        disk -dir /data1,/data2 -bs 4096,1M -size 1G
net to nn1:   net -c nn1.example -P 4 -t 10
net from nn1: net -c nn1.example -P 4 -t 10 -R

# What the cluster does with them.
dfsio write:  dfsio -write -nrFiles 12 -size 1GB
dfsio read:   dfsio -read -nrFiles 12 -size 1GB
ycsb load:    load -db hbase -w workloada -p recordcount=100000 -threads 10
ycsb run:     run -db hbase -w workloada -p operationcount=100000 -threads 10
produce:      producer-perf --topic test --num-records 10000 --record-size 300000 --throughput -1 --producer-props bootstrap.servers=broker1:9092
consume:      consumer-perf --topic test --messages 10000 --bootstrap-server broker1:9092
`

// suiteLine is one step of a suite file.
type suiteLine struct {
	line  int
	label string
	kind  *suiteStepKind
	args  []string
	raw   string
}

// suiteFile is a parsed suite file.
type suiteFile struct {
	title, report string
	steps         []suiteLine
}

// parseSuite reads a suite file, reporting every problem at once.
func parseSuite(r io.Reader, name string) (*suiteFile, error) {
	f := &suiteFile{}
	var errs []error
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		bad := func(format string, a ...any) {
			errs = append(errs, fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, a...)))
		}
		label := ""
		if i := strings.Index(text, ":"); i > 0 && !strings.ContainsAny(text[:i], "-=/\"'") {
			label, text = strings.TrimSpace(text[:i]), strings.TrimSpace(text[i+1:])
		}
		words, err := splitWords(text)
		if err != nil {
			bad("%v", err)
			continue
		}
		if len(words) == 0 {
			bad("a label without a step")
			continue
		}
		switch words[0] {
		case "title":
			f.title = strings.TrimSpace(strings.TrimPrefix(text, "title"))
			continue
		case "report":
			if len(words) != 2 {
				bad("report takes one file name")
			} else {
				f.report = words[1]
			}
			continue
		}
		k := lookupSuiteStep(words[0])
		switch {
		case k == nil:
			bad("unknown step %q (steps: %s)", words[0], strings.Join(suiteStepNames(), ", "))
			continue
		}
		if k.check != nil {
			if err := k.check(words[1:]); err != nil {
				bad("%s: %v", k.name, err)
				continue
			}
		}
		if label == "" {
			label = strings.Join(words[:min(2, len(words))], " ")
		}
		f.steps = append(f.steps, suiteLine{line: n, label: label, kind: k, args: words[1:], raw: text})
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
	}
	if len(errs) == 0 && len(f.steps) == 0 {
		errs = append(errs, fmt.Errorf("%s: no steps (see gobench suite -example)", name))
	}
	return f, errors.Join(errs...)
}

// splitWords splits a line into words as a shell would for simple cases:
// blanks separate, single and double quotes group.
func splitWords(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", quote)
	}
	if in {
		out = append(out, cur.String())
	}
	return out, nil
}

// runSuite runs the steps in order and returns the run for the report.
func runSuite(ctx context.Context, f *suiteFile, file string, stderr io.Writer) *rep.Suite {
	s := &rep.Suite{Title: f.title, File: file, Started: time.Now()}
	for i, st := range f.steps {
		if ctx.Err() != nil {
			s.Steps = append(s.Steps, rep.SuiteStep{Name: st.kind.name, Label: st.label, Args: strings.Join(st.args, " "),
				Started: time.Now(), Err: "not run: the suite was interrupted"})
			continue
		}
		fmt.Fprintf(stderr, "gobench suite: step %d of %d: %s (%s)\n", i+1, len(f.steps), st.label, st.raw)
		var out bytes.Buffer
		start := time.Now()
		r, err := st.kind.run(ctx, st.args, &out)
		step := rep.SuiteStep{Name: st.kind.name, Label: st.label, Args: strings.Join(st.args, " "), Started: start,
			Time: time.Since(start), Metrics: r.metrics, Ceilings: r.ceilings, Output: out.String()}
		if err != nil {
			step.Err = err.Error()
			fmt.Fprintf(stderr, "gobench suite: step %d (%s) failed: %v\n", i+1, st.label, err)
		}
		for _, m := range r.metrics {
			fmt.Fprintf(stderr, "gobench suite:   %s: %s %s\n", m.Name, trimFloat(m.Value), m.Unit)
		}
		s.Steps = append(s.Steps, step)
	}
	s.Ended = time.Now()
	return s
}

func trimFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

func suiteCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("suite", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "the HTML report (default: the file's report line, else suite.html)")
	title := fs.String("title", "", "the page's title (default: the file's title line)")
	example := fs.Bool("example", false, "print an example suite file and exit")
	files, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return printUsage(stdout, fs, "gobench suite [-o report.html] [-title T] FILE | gobench suite -example", suiteAbout)
	}
	if err != nil {
		return usageErr(fmt.Errorf("suite: %w", err))
	}
	if *example {
		_, err := io.WriteString(stdout, suiteExample)
		return err
	}
	if len(files) != 1 {
		return usageErr(errors.New("suite: give one suite file (gobench suite -example prints one)"))
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		return usageErr(fmt.Errorf("suite: %w", err))
	}
	f, err := parseSuite(bytes.NewReader(b), files[0])
	if err != nil {
		return configErr(err)
	}
	if *title != "" {
		f.title = *title
	}
	path := *out
	if path == "" {
		path = f.report
	}
	if path == "" {
		path = "suite.html"
	}
	s := runSuite(ctx, f, files[0], stderr)
	var page bytes.Buffer
	if err := rep.WriteSuiteHTML(&page, s); err != nil {
		return err
	}
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	failed := 0
	for _, st := range s.Steps {
		if st.Err != "" {
			failed++
		}
	}
	fmt.Fprintf(stderr, "gobench suite: %d of %d steps passed; wrote %s\n", len(s.Steps)-failed, len(s.Steps), path)
	if failed > 0 {
		return fmt.Errorf("suite: %d of %d steps failed (see %s)", failed, len(s.Steps), path)
	}
	return nil
}
