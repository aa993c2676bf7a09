package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workloads"
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

// command is a sub-command beyond load and run (dfsio, producer-perf, ...).
// Files that add one register it from init.
type command struct {
	summary string // one line for the usage text
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

// run is the whole program, testable: args without the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "load":
		err = bench(ctx, workload.Load, rest, stdout, stderr)
	case "run":
		err = bench(ctx, workload.Transactions, rest, stdout, stderr)
	case "workloads":
		for _, w := range workloads.List() {
			fmt.Fprintf(stdout, "%-18s %s\n", w.Name, w.Purpose)
		}
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "gobench %s\n", version)
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usageText)
		for _, n := range commandNames()[5:] {
			fmt.Fprintf(stdout, "  gobench %-16s %s\n", n, commands[n].summary)
		}
	default:
		if c, ok := commands[cmd]; ok {
			err = c.run(ctx, rest, stdout, stderr)
			break
		}
		if strings.HasPrefix(cmd, "-") {
			// Java Client style: gobench -db basic -P w -load
			err = bench(ctx, workload.Transactions, args, stdout, stderr)
			break
		}
		err = usageErr(fmt.Errorf("unknown command %q (commands: %s)", cmd, strings.Join(commandNames(), ", ")))
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

// commandNames lists every command: the built-in ones, then the registered
// ones sorted.
func commandNames() []string {
	var extra []string
	for n := range commands {
		extra = append(extra, n)
	}
	sort.Strings(extra)
	return append([]string{"load", "run", "workloads", "version", "help"}, extra...)
}
