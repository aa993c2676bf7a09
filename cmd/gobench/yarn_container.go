package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// yarnJobFile is the job description gobench yarn localizes into every
// container.
const yarnJobFile = "gobench-yarn.json"

// yarnJob is what gobench yarn tells its containers.
type yarnJob struct {
	Version   string   `json:"gobench_version"`
	App       string   `json:"application"`
	Clients   int      `json:"clients"`
	FS        string   `json:"fs"`
	Namenodes []string `json:"namenodes"`
	User      string   `json:"user"`
	// Dir is this application's directory on HDFS (start/, exit/,
	// client-K.json, stop).
	Dir string `json:"dir"`
	// Command is load or run and its arguments, with property files
	// renamed to their localized names.
	Command []string `json:"command"`
	// StartTimeout bounds the wait for all clients (ms).
	StartTimeoutMs int64 `json:"start_timeout_ms"`
}

// yarnStart is what a client records on HDFS when it starts
// (start/K.json), before it waits for the others.
type yarnStart struct {
	Client    int       `json:"client"`
	Container string    `json:"container"`
	Host      string    `json:"host"`
	PID       int       `json:"pid"`
	Time      time.Time `json:"time"`
}

// yarnExit is what a client records when it ends (exit/K.json).
type yarnExit struct {
	Client    int       `json:"client"`
	Container string    `json:"container"`
	Host      string    `json:"host"`
	Code      int       `json:"exit_code"`
	Error     string    `json:"error,omitempty"`
	Started   time.Time `json:"started"`
	Ended     time.Time `json:"ended"`
	// Waited is how long it waited for the other clients (ms), and
	// Together how many had started when it went.
	WaitedMs int64 `json:"waited_ms"`
	Together int   `json:"together"`
	// ClockOffsetMs is this machine's clock minus the NameNode's, measured
	// when it wrote its start file (to within ClockErrorMs).
	ClockOffsetMs int64 `json:"clock_offset_ms"`
	ClockErrorMs  int64 `json:"clock_error_ms"`
}

// yarnShellIDEnv is set by DistributedShell in each container: 1..N, in
// allocation order.
const yarnShellIDEnv = "YARN_SHELL_ID"

// yarnContainer is `gobench yarn -container gobench-yarn.json`, what each
// container runs: take the client number from YARN_SHELL_ID, record the
// start on HDFS (the exclusive create makes two containers with one
// number impossible), wait until all clients have started (bounded), run
// the command as client K of N with its result document in the working
// directory, and put that on HDFS. A stop file on HDFS (gobench yarn's
// Ctrl-C) stops the run as an interrupt does: the result still counts
// what ran.
func yarnContainer(ctx context.Context, jobPath string, stdout, stderr io.Writer) error {
	b, err := os.ReadFile(jobPath)
	if err != nil {
		return fmt.Errorf("yarn container: %w", err)
	}
	var job yarnJob
	if err := json.Unmarshal(b, &job); err != nil {
		return fmt.Errorf("yarn container: %s: %w", jobPath, err)
	}
	id, err := strconv.Atoi(os.Getenv(yarnShellIDEnv))
	if err != nil || id < 1 {
		return fmt.Errorf("yarn container: %s=%q: not run by DistributedShell's application master", yarnShellIDEnv, os.Getenv(yarnShellIDEnv))
	}
	k := id - 1
	if k >= job.Clients {
		// DistributedShell replaces a container the framework aborted
		// (a lost node) with a new one numbered N+1, N+2, ...
		return fmt.Errorf("yarn container: %s=%d but there are %d clients: a replacement container; the client it replaces is reported missing", yarnShellIDEnv, id, job.Clients)
	}
	fs, err := dialYarnFS(job.FS, job.Namenodes, job.User)
	if err != nil {
		return fmt.Errorf("yarn container: %w", err)
	}
	defer fs.Close()
	p := yarnPaths{job.Dir}
	host, _ := os.Hostname()
	if h := os.Getenv("NM_HOST"); h != "" {
		host = h
	}
	ex := yarnExit{Client: k, Container: os.Getenv("CONTAINER_ID"), Host: host}
	st, _ := json.Marshal(yarnStart{Client: k, Container: ex.Container, Host: host, PID: os.Getpid(), Time: time.Now()})
	t1, t2, err := fs.createTimed(p.startOf(k), st, true)
	if err != nil {
		return fmt.Errorf("yarn container: client %d: claim its number: %w", k, err)
	}
	if _, mtime, err := fs.stat(p.startOf(k)); err == nil {
		mid := t1.Add(t2.Sub(t1) / 2)
		ex.ClockOffsetMs, ex.ClockErrorMs = mid.UnixMilli()-mtime, (t2.Sub(t1)/2).Milliseconds()+1
	}
	fmt.Fprintf(stderr, "gobench yarn: client %d of %d in %s on %s; clock %+d ms against the NameNode's (±%d ms)\n", k, job.Clients, ex.Container, host, ex.ClockOffsetMs, ex.ClockErrorMs)

	ex.Together, ex.WaitedMs = yarnBarrier(ctx, fs, p, job, time.Duration(ex.ClockOffsetMs)*time.Millisecond, stderr)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { // gobench yarn's Ctrl-C: stop as an interrupt does
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-t.C:
				if fs.exists(p.stop()) {
					fmt.Fprintln(stderr, "gobench yarn: asked to stop: finishing the operations in flight")
					cancel()
					return
				}
			}
		}
	}()
	result := yarnResultName(k)
	args := append(append([]string(nil), job.Command...),
		"-p", fmt.Sprintf("gobench.clients=%d", job.Clients), "-p", fmt.Sprintf("gobench.client=%d", k),
		"-p", "exporter=json", "-p", "exportfile="+result)
	ex.Started = time.Now()
	ex.Code = run(runCtx, args, stdout, stderr)
	ex.Ended = time.Now()
	cancel()
	var errs []error
	if data, err := os.ReadFile(result); err == nil {
		if err := fs.put(p.resultOf(k), data); err != nil {
			errs = append(errs, err)
		}
	} else {
		errs = append(errs, fmt.Errorf("no result document: %w", err))
	}
	if ex.Code != exitOK {
		errs = append(errs, fmt.Errorf("gobench %s exited %d", job.Command[0], ex.Code))
	}
	if err := errors.Join(errs...); err != nil {
		ex.Error = err.Error()
	}
	eb, _ := json.Marshal(ex)
	if err := fs.put(p.exitOf(k), eb); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("yarn container: client %d: %w", k, err)
	}
	return nil
}

// yarnBarrier waits until every client has written its start file, the
// start timeout passes, a stop is asked for or ctx ends. When all have
// started, every client goes at the same instant: a second after the
// NameNode's time of the last start file, read on its own clock through
// the offset it measured (so the starts line up to the clocks' accuracy,
// not the polling's). It returns how many had started and how long it
// waited (ms).
func yarnBarrier(ctx context.Context, fs *yarnFS, p yarnPaths, job yarnJob, offset time.Duration, stderr io.Writer) (int, int64) {
	t0 := time.Now()
	deadline := t0.Add(time.Duration(job.StartTimeoutMs) * time.Millisecond)
	for {
		fis, err := fs.c.ReadDir(p.start())
		var last time.Time
		n := 0
		for _, fi := range fis {
			if _, ok := yarnNumber(fi.Name()); ok {
				n++
				if fi.ModTime().After(last) {
					last = fi.ModTime()
				}
			}
		}
		switch {
		case err == nil && n >= job.Clients:
			goAt := last.Add(time.Second).Add(offset)
			if wait := time.Until(goAt); wait > 0 && wait < 5*time.Second {
				select {
				case <-time.After(wait):
				case <-ctx.Done():
				}
			}
			return n, time.Since(t0).Milliseconds()
		case time.Now().After(deadline):
			fmt.Fprintf(stderr, "gobench yarn: only %d of %d clients started within %v; starting anyway (the merge names the late ones)\n", n, job.Clients, time.Duration(job.StartTimeoutMs)*time.Millisecond)
			return n, time.Since(t0).Milliseconds()
		case ctx.Err() != nil || fs.exists(p.stop()):
			return n, time.Since(t0).Milliseconds()
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// yarnNumber is the client number of a K.json file name.
func yarnNumber(name string) (int, bool) {
	if !strings.HasSuffix(name, ".json") {
		return 0, false
	}
	k, err := strconv.Atoi(strings.TrimSuffix(name, ".json"))
	return k, err == nil && k >= 0
}

// yarnNumbered returns the client numbers of K.json file names.
func yarnNumbered(names []string) map[int]bool {
	out := map[int]bool{}
	for _, name := range names {
		if k, ok := yarnNumber(name); ok {
			out[k] = true
		}
	}
	return out
}
