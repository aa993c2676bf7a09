package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Cluster runs testenv/fault.sh and the admin helpers for one test or benchmark. It is
// safe for concurrent use; Close stops the helper processes it started.
type Cluster struct {
	dir string // the testenv directory (holds fault.sh)

	mu     sync.Mutex
	shells map[string]*shell // "hbase", "kafka": started on first use
	closed bool
}

// Open finds testenv/fault.sh: in GOBENCH_TESTENV if set, else in the testenv/
// directory of the nearest enclosing module (walking up from the working directory).
// It does not contact the cluster ([Cluster.Check] does).
func Open() (*Cluster, error) {
	dir := os.Getenv("GOBENCH_TESTENV")
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("cluster: find testenv: %w", err)
		}
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				dir = filepath.Join(d, "testenv")
				break
			}
			if filepath.Dir(d) == d {
				return nil, fmt.Errorf("cluster: no go.mod above %s; set GOBENCH_TESTENV to the testenv directory", wd)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "fault.sh")); err != nil {
		return nil, fmt.Errorf("cluster: %s/fault.sh: %w (set GOBENCH_TESTENV to the testenv directory)", dir, err)
	}
	return &Cluster{dir: dir, shells: map[string]*shell{}}, nil
}

// Close stops the admin helper processes. The cluster keeps running.
func (c *Cluster) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var errs []error
	for k, s := range c.shells {
		errs = append(errs, s.close())
		delete(c.shells, k)
	}
	return errors.Join(errs...)
}

// run runs fault.sh with args and returns its standard output. A failure's error holds
// the command and the last lines of its standard error (fault.sh names the problem).
func (c *Cluster) run(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(c.dir, "fault.sh")}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	setProcessGroup(cmd, true)
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("testenv/fault.sh %s: %w: %s", strings.Join(args, " "), err, lastLines(errb.String(), 8))
	}
	return out.String(), nil
}

// lastLines returns the last n non-empty lines of s, joined by " | ".
func lastLines(s string, n int) string {
	var l []string
	for _, x := range strings.Split(strings.TrimSpace(s), "\n") {
		if x = strings.TrimSpace(x); x != "" {
			l = append(l, x)
		}
	}
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, " | ")
}

func checkNode(name string) error {
	_, err := lookup(name)
	return err
}

// Kill sends SIGKILL to a node (a crash: no shutdown; its data stays on disk) and waits
// until the process is gone.
func (c *Cluster) Kill(ctx context.Context, name string) error {
	if err := checkNode(name); err != nil {
		return err
	}
	_, err := c.run(ctx, "kill", name)
	return err
}

// Freeze sends SIGSTOP to a node. With d > 0 a detached timer (it outlives this
// process) sends SIGCONT after d; with d == 0 the node stays frozen until [Cluster.Thaw].
// Freeze returns at once.
func (c *Cluster) Freeze(ctx context.Context, name string, d time.Duration) error {
	if err := checkNode(name); err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("cluster: freeze %s for %v: want a duration >= 0", name, d)
	}
	args := []string{"freeze", name}
	if d > 0 {
		args = append(args, strconv.FormatInt(max(d.Milliseconds(), 1), 10)+"ms")
	}
	_, err := c.run(ctx, args...)
	return err
}

// Thaw sends SIGCONT to a frozen node now (and cancels its timer).
func (c *Cluster) Thaw(ctx context.Context, name string) error {
	if err := checkNode(name); err != nil {
		return err
	}
	_, err := c.run(ctx, "thaw", name)
	return err
}

// Stop stops a node in order (SIGTERM; SIGKILL after 40 s).
func (c *Cluster) Stop(ctx context.Context, name string) error {
	if err := checkNode(name); err != nil {
		return err
	}
	_, err := c.run(ctx, "stop", name)
	return err
}

// Start starts a stopped or killed node with its data and waits until it is ready
// (its port open and its own start-up line logged: a RegionServer registered with the
// master, a DataNode's block report sent, a broker unfenced). A running node is left
// alone.
func (c *Cluster) Start(ctx context.Context, name string) error {
	if err := checkNode(name); err != nil {
		return err
	}
	_, err := c.run(ctx, "start", name)
	return err
}

// Restart stops a running node in order, then starts it as [Cluster.Start] does.
func (c *Cluster) Restart(ctx context.Context, name string) error {
	if err := checkNode(name); err != nil {
		return err
	}
	_, err := c.run(ctx, "restart", name)
	return err
}

// NodeStatus is one line of fault.sh list.
type NodeStatus struct {
	Name   string
	State  string // "up", "frozen" or "down"
	PID    int    // 0 when down
	RSSMiB int    // resident set size; 0 when down
	Addr   string
}

// List returns the state of every node.
func (c *Cluster) List(ctx context.Context) ([]NodeStatus, error) {
	out, err := c.run(ctx, "list")
	if err != nil {
		return nil, err
	}
	return parseList(out)
}

// parseList parses fault.sh list: a header, then
// "NAME STATE PID RSS MiB ADDR LOG" (up/frozen) or "NAME down - - ADDR -".
func parseList(out string) ([]NodeStatus, error) {
	var l []NodeStatus
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if i == 0 && len(f) > 0 && f[0] == "NODE" {
			continue
		}
		switch {
		case len(f) == 6 && f[1] == "down":
			l = append(l, NodeStatus{Name: f[0], State: "down", Addr: f[4]})
		case len(f) == 7 && f[4] == "MiB":
			pid, err1 := strconv.Atoi(f[2])
			rss, err2 := strconv.Atoi(f[3])
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("cluster: fault.sh list: bad line %q", line)
			}
			l = append(l, NodeStatus{Name: f[0], State: f[1], PID: pid, RSSMiB: rss, Addr: f[5]})
		default:
			return nil, fmt.Errorf("cluster: fault.sh list: bad line %q", line)
		}
	}
	return l, nil
}

// State returns the state of one node: "up", "frozen" or "down".
func (c *Cluster) State(ctx context.Context, name string) (string, error) {
	if err := checkNode(name); err != nil {
		return "", err
	}
	l, err := c.List(ctx)
	if err != nil {
		return "", err
	}
	for _, s := range l {
		if s.Name == name {
			return s.State, nil
		}
	}
	return "", fmt.Errorf("cluster: fault.sh list has no line for %s", name)
}

// Check returns nil if every node of the given systems ("hdfs", "hbase", "kafka"; none:
// all) is up and not frozen, else an error naming the nodes and the command that
// starts them. Tests call it first and fail (never skip) on its error.
func (c *Cluster) Check(ctx context.Context, system ...string) error {
	for _, s := range system {
		if !slices.Contains(systems, s) {
			return fmt.Errorf("cluster: unknown system %q (allowed: %s)", s, strings.Join(systems, ", "))
		}
	}
	if len(system) == 0 {
		system = systems
	}
	l, err := c.List(ctx)
	if err != nil {
		return err
	}
	want := Nodes(system...)
	var bad []string
	for _, s := range l {
		if slices.Contains(want, s.Name) && s.State != "up" {
			bad = append(bad, s.Name+" "+s.State)
		}
	}
	if len(bad) > 0 {
		up := slices.Clone(system)
		if slices.Contains(up, "hbase") && !slices.Contains(up, "hdfs") {
			up = append([]string{"hdfs"}, up...)
		}
		return fmt.Errorf("testenv cluster not up (%s); start it with: testenv/up.sh --cluster %s",
			strings.Join(bad, ", "), strings.Join(up, " "))
	}
	return nil
}

// LiveDataNodes returns the NameNode's count of live DataNodes.
func (c *Cluster) LiveDataNodes(ctx context.Context) (int, error) {
	out, err := c.run(ctx, "hdfs", "live")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

// WaitLiveDataNodes waits (at most timeout) until the NameNode counts n live DataNodes.
// A killed DataNode is declared dead about 20 s after its last heartbeat.
func (c *Cluster) WaitLiveDataNodes(ctx context.Context, n int, timeout time.Duration) error {
	_, err := c.run(ctx, "hdfs", "wait-live", strconv.Itoa(n), seconds(timeout))
	return err
}

// seconds renders a timeout for the helpers: whole seconds, at least 1.
func seconds(d time.Duration) string {
	return strconv.FormatInt(max(int64((d+time.Second-1)/time.Second), 1), 10)
}
