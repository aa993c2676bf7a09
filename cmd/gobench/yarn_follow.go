package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/yarn"
)

// follow polls the application until it ends, with a live line (on a
// terminal, rewritten in place; otherwise a line at each change). The
// first cancellation of ctx (Ctrl-C) writes the stop file the clients
// watch and kills the application after -grace; a second Ctrl-C (quit
// hook) kills it at once.
func (o *yarnOptions) follow(ctx context.Context, rm *yarn.Client, dfs *yarnFS, paths yarnPaths, appID string, stderr io.Writer) (*yarn.App, error) {
	tty := false
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		tty = true
	}
	kill := func(why string) {
		kctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := rm.Kill(kctx, appID); err != nil {
			fmt.Fprintf(stderr, "\ngobench yarn: %v\n", err)
			return
		}
		fmt.Fprintf(stderr, "\ngobench yarn: killed %s (%s)\n", appID, why)
	}
	defer onQuit(func() { kill("second interrupt") })()
	start := time.Now()
	done := ctx.Done()
	var stopAt time.Time
	stopped, killed := false, false
	last, fails := "", 0
	t := time.NewTicker(o.poll)
	defer t.Stop()
	for {
		pctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		app, err := rm.App(pctx, appID)
		cancel()
		if err != nil {
			if fails++; fails*int(o.poll/time.Millisecond) > 120000 {
				return nil, fmt.Errorf("yarn: lost the ResourceManager for 2 minutes: %w", err)
			}
		} else {
			fails = 0
			started, _ := dfs.names(paths.start())
			exited, _ := dfs.names(paths.exit())
			line := fmt.Sprintf("%s %s: %d of %d clients started, %d done, %d containers running, %s",
				appID, app.State, len(yarnNumbered(started)), o.n, len(yarnNumbered(exited)), max(app.RunningContainers, 0), time.Since(start).Truncate(time.Second))
			switch {
			case tty:
				fmt.Fprint(stderr, "\r\033[K"+line)
			case !sameProgress(line, last):
				fmt.Fprintln(stderr, "gobench yarn: "+line)
			}
			last = line
			if app.Done() {
				if tty {
					fmt.Fprint(stderr, "\r\033[K")
				}
				return app, nil
			}
		}
		if ctx.Err() != nil && !stopped {
			stopped, done = true, nil
			stopAt = time.Now().Add(o.grace)
			if err := dfs.put(paths.stop(), []byte("stop\n")); err != nil {
				fmt.Fprintf(stderr, "\ngobench yarn: %v\n", err)
				stopAt = time.Now()
			}
			fmt.Fprintf(stderr, "\ngobench yarn: interrupted: asked the clients to stop and write their results; killing %s in %v (interrupt again to kill it now)\n", appID, o.grace)
		}
		if stopped && !killed && !time.Now().Before(stopAt) {
			killed = true
			kill(fmt.Sprintf("the clients did not end within -grace %v", o.grace))
		}
		select {
		case <-t.C:
		case <-done:
		}
	}
}

// sameProgress compares two progress lines without their elapsed time.
func sameProgress(a, b string) bool {
	cut := func(s string) string {
		if i := strings.LastIndex(s, ", "); i >= 0 {
			return s[:i]
		}
		return s
	}
	return cut(a) == cut(b)
}

// yarnClient is what one client left on HDFS.
type yarnClient struct {
	k      int
	start  *yarnStart
	exit   *yarnExit
	result []byte
}

// problem says what went wrong with the client ("" when nothing did).
func (c *yarnClient) problem() string {
	where := ""
	if c.start != nil {
		where = fmt.Sprintf(" (container %s on %s)", c.start.Container, c.start.Host)
	}
	switch {
	case c.start == nil:
		return "never started: no container ran it (the cluster had no room, or its container failed before gobench ran; see the application master's log)"
	case c.exit == nil && c.result == nil:
		return "killed or died while running" + where + ": no result file"
	case c.exit == nil:
		return "ended without its exit record" + where
	case c.result == nil:
		return fmt.Sprintf("exited %d without a result%s: %s", c.exit.Code, where, c.exit.Error)
	case c.exit.Code != exitOK:
		return fmt.Sprintf("exited %d%s: %s (its result is merged)", c.exit.Code, where, c.exit.Error)
	}
	return ""
}

// report reads every client's files, prints the merge as gobench merge
// does and names the clients that did not complete.
func (o *yarnOptions) report(dfs *yarnFS, paths yarnPaths, app *yarn.App, ferr error, stdout, stderr io.Writer) error {
	if app != nil {
		fmt.Fprintf(stderr, "gobench yarn: %s %s, final status %s, after %v\n", app.ID, app.State, app.FinalStatus, (time.Duration(app.ElapsedTime) * time.Millisecond).Round(time.Second))
		if app.FinalStatus != "SUCCEEDED" && app.Diagnostics != "" {
			fmt.Fprintf(stderr, "gobench yarn: diagnostics: %s\n", firstLine(app.Diagnostics, 400))
		}
	}
	clients := make([]*yarnClient, o.n)
	for k := range clients {
		c := &yarnClient{k: k}
		if b, err := dfs.read(paths.startOf(k)); err == nil {
			c.start = &yarnStart{}
			json.Unmarshal(b, c.start)
		}
		if b, err := dfs.read(paths.exitOf(k)); err == nil {
			c.exit = &yarnExit{}
			json.Unmarshal(b, c.exit)
		}
		if b, err := dfs.read(paths.resultOf(k)); err == nil {
			c.result = b
		}
		clients[k] = c
	}
	if o.results != "" {
		if err := os.MkdirAll(o.results, 0o755); err != nil {
			return fmt.Errorf("yarn: -results: %w", err)
		}
	}
	var docs []*measure.Document
	var labels, problems []string
	for _, c := range clients {
		if pr := c.problem(); pr != "" {
			problems = append(problems, fmt.Sprintf("client %d %s", c.k, pr))
		}
		if c.result == nil {
			continue
		}
		label := dfs.resourceURL(paths.resultOf(c.k))
		if o.results != "" {
			label = filepath.Join(o.results, yarnResultName(c.k))
			if err := os.WriteFile(label, c.result, 0o644); err != nil {
				return fmt.Errorf("yarn: -results: %w", err)
			}
		}
		doc, err := measure.ReadDocument(bytes.NewReader(c.result))
		if err != nil {
			problems = append(problems, fmt.Sprintf("client %d wrote a result that does not read: %v", c.k, err))
			continue
		}
		docs, labels = append(docs, doc), append(labels, label)
	}
	clockLine(clients, stderr)
	for _, p := range problems {
		fmt.Fprintf(stderr, "gobench yarn: %s\n", p)
	}
	if len(docs) == 0 {
		return errors.Join(ferr, fmt.Errorf("yarn: no client wrote a result (%d clients)", o.n))
	}
	m, err := measure.Merge(docs, labels)
	if err != nil {
		return fmt.Errorf("yarn: merge: %w", err)
	}
	if err := printMerged(stdout, stderr, m, o.out); err != nil {
		return err
	}
	switch {
	case ferr != nil:
		return ferr
	case len(problems) > 0:
		return fmt.Errorf("yarn: %d of %d clients did not complete: %s (the report merges the other %d)", o.n-len(docs), o.n, strings.Join(problems, "; "), len(docs))
	case app != nil && app.FinalStatus != "SUCCEEDED":
		return fmt.Errorf("yarn: the application ended %s (%s)", app.FinalStatus, firstLine(app.Diagnostics, 200))
	}
	return nil
}

// clockLine prints each client's clock against the NameNode's, and warns
// when one is off by more than the merge's skew bound.
func clockLine(clients []*yarnClient, stderr io.Writer) {
	var parts, off []string
	var errMs int64
	for _, c := range clients {
		if c.exit == nil {
			continue
		}
		parts = append(parts, fmt.Sprintf("client %d %+d ms", c.k, c.exit.ClockOffsetMs))
		errMs = max(errMs, c.exit.ClockErrorMs)
		if d := time.Duration(c.exit.ClockOffsetMs) * time.Millisecond; d > measure.SkewBound || d < -measure.SkewBound {
			off = append(off, fmt.Sprintf("client %d (%+v)", c.k, d))
		}
	}
	if len(parts) == 0 {
		return
	}
	fmt.Fprintf(stderr, "gobench yarn: clocks against the NameNode's: %s (±%d ms)\n", strings.Join(parts, ", "), errMs)
	if len(off) > 0 {
		fmt.Fprintf(stderr, "Warning: clocks off by more than %v: %s: the merge lines up clients whose starts differ by at most %v; synchronize the nodes' clocks (NTP)\n", measure.SkewBound, strings.Join(off, ", "), measure.SkewBound)
	}
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}
