package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/gobench/gobench/engine"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1 // the run failed
	exitUsage  = 2 // usage or configuration error
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// usageError marks errors in how gobench was called (exit 2).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usageErr(err error) error { return &usageError{err} }

// configErr marks configuration errors (exit 2), listing each on its line.
func configErr(err error) error { return &usageError{err} }

// command is one sub-command.
type command struct {
	name    string
	summary string // one line for the usage text
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is every command, in the order help lists them. It is a
// function, not a variable, because help itself lists the table.
func commands() []command {
	return []command{
		{"load", "YCSB's load phase: insert the records (-w/-P/-p/-threads/-target/-s as in YCSB)", func(ctx context.Context, a []string, o, e io.Writer) error {
			return bench(ctx, engine.Load, true, a, o, e)
		}},
		{"run", "YCSB's run phase: the operation mix, with YCSB's report", func(ctx context.Context, a []string, o, e io.Writer) error {
			return bench(ctx, engine.Transactions, true, a, o, e)
		}},
		{"dfsio", "Hadoop's TestDFSIO: -write | -read [-random|-backward|-skip] | -append | -truncate | -clean, -nrFiles N -size S", dfsioMain},
		{"producer-perf", "Kafka's producer perf test (kafka-producer-perf-test.sh options)", producerPerf},
		{"consumer-perf", "Kafka's consumer perf test (kafka-consumer-perf-test.sh options)", consumerPerf},
		{"hive", "Hive query benchmark: generate and load the data set, time the report's five queries or a .sql file on N sessions", hiveMain},
		{"disk", "dd's disk test done right: write and read back (O_DIRECT) a file per disk per block size, dd's lines", diskMain},
		{"net", "iperf3's TCP test, iperf3's protocol: net -s (server) | net -c HOST [-P N] [-t S] [-R] [-J]", netMain},
		{"suite", "an acceptance run: the steps of a file in order, one HTML page with every throughput against the disk and net ceilings", suiteCmd},
		{"sweep", "run the same workload at several thread counts; table, knee and report", sweepCmd},
		{"merge", "combine the JSON results of several client processes into one report", mergeCmd},
		{"yarn", "run N clients as one YARN application (-n N -- load|run ...) and print their merged report", yarnCmd},
		{"report", "draw result files as one self-contained HTML page (or PNG/SVG files)", reportCmd},
		{"workloads", "list the shipped workload files and the workload kinds", workloadsCmd},
		{"version", "print gobench's version", func(_ context.Context, _ []string, o, _ io.Writer) error {
			_, err := fmt.Fprintf(o, "gobench %s\n", version)
			return err
		}},
		{"help", "this text", func(_ context.Context, _ []string, o, _ io.Writer) error { return writeUsage(o) }},
	}
}

// aliases are other spellings of commands.
var aliases = map[string]string{
	"--version": "version", "-version": "version",
	"-h": "help", "--help": "help", "-help": "help",
}

func lookupCommand(name string) (command, bool) {
	if a, ok := aliases[name]; ok {
		name = a
	}
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func commandNames() []string {
	var n []string
	for _, c := range commands() {
		n = append(n, c.name)
	}
	return n
}

// lockedWriter serialises writes: the runner's log, the status line and
// the observers write to stderr from different goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// run is the whole program, testable: args without the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if f, ok := stderr.(*os.File); !ok || f != os.Stderr {
		stderr = &lockedWriter{w: stderr} // tests pass buffers; the progress line needs the *os.File
	}
	if len(args) == 0 {
		writeUsage(stderr)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	var err error
	if c, ok := lookupCommand(name); ok {
		err = c.run(ctx, rest, stdout, stderr)
	} else if strings.HasPrefix(name, "-") {
		// Java Client style: gobench -db basic -P w -load
		err = bench(ctx, engine.Transactions, false, args, stdout, stderr)
	} else {
		err = usageErr(fmt.Errorf("unknown command %q (commands: %s)", name, strings.Join(commandNames(), ", ")))
	}
	return exitCode(err, stderr)
}

// exitCode prints err and maps it to an exit code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		msgs := strings.Split(err.Error(), "\n")
		if len(msgs) > 1 {
			fmt.Fprintf(stderr, "gobench: %d problems:\n", len(msgs))
			for _, m := range msgs {
				fmt.Fprintf(stderr, "  %s\n", m)
			}
		} else {
			fmt.Fprintf(stderr, "gobench: %s\n", err)
		}
		fmt.Fprintln(stderr, "Run 'gobench help' for usage.")
		return exitUsage
	}
	fmt.Fprintf(stderr, "gobench: %s\n", err)
	return exitFailed
}
