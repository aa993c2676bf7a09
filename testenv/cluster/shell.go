package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// shell is one long-lived admin helper, "fault.sh hbase shell" or "fault.sh kafka
// shell" (testenv/java/ClusterAdmin.java, ClusterKafka.java): it reads one command per
// line and answers with its output lines, then "> ok" or "> err MESSAGE".
type shell struct {
	kind   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *tail
	exited chan struct{}
	quit   chan struct{} // closed by kill: the reader stops delivering lines
	once   sync.Once

	mu   sync.Mutex // one command at a time
	dead bool
}

// tail keeps the last 4 KiB written to it (the helper's standard error).
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return lastLines(string(t.b), 6)
}

// errHelper marks an answer "> err MESSAGE": the helper is fine, the action failed.
var errHelper = errors.New("failed")

func startShell(ctx context.Context, dir, kind string) (*shell, error) {
	// Not CommandContext: the helper outlives ctx (it serves later calls until Close).
	cmd := exec.Command("bash", filepath.Join(dir, "fault.sh"), kind, "shell")
	setProcessGroup(cmd, false)
	s := &shell{kind: kind, cmd: cmd, lines: make(chan string, 256), stderr: &tail{}, exited: make(chan struct{}), quit: make(chan struct{})}
	cmd.Stderr = s.stderr
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start testenv/fault.sh %s shell: %w", kind, err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
	read:
		for sc.Scan() {
			select {
			case s.lines <- sc.Text():
			case <-s.quit:
				break read
			}
		}
		close(s.lines)
		io.Copy(io.Discard, stdout)
		cmd.Wait()
		close(s.exited)
	}()
	// The first answer ("> ok ready") comes once the JVM is connected; on a first run
	// this includes compiling the helper.
	if _, err := s.await(ctx, "start"); err != nil {
		return nil, err
	}
	return s, nil
}

// do runs one command; args must be non-empty words without white space.
func (s *shell) do(ctx context.Context, args ...string) ([]string, error) {
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\r\n") {
			return nil, fmt.Errorf("testenv %s helper: argument %q: want a non-empty word without white space", s.kind, a)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead {
		return nil, fmt.Errorf("testenv %s helper: exited", s.kind)
	}
	line := strings.Join(args, " ")
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.kill()
		return nil, fmt.Errorf("testenv %s helper: send %q: %w (%s)", s.kind, line, err, s.stderr)
	}
	return s.await(ctx, line)
}

// await collects output lines up to the "> ok" or "> err" line. On a cancelled context
// the helper is killed (its answer may still come; the next call starts a new one).
func (s *shell) await(ctx context.Context, what string) ([]string, error) {
	var data []string
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.kill()
				select { // for the whole of its stderr
				case <-s.exited:
				case <-time.After(5 * time.Second):
				}
				return nil, fmt.Errorf("testenv %s helper: exited during %q: %s", s.kind, what, s.stderr)
			}
			switch {
			case line == "> ok" || strings.HasPrefix(line, "> ok "):
				return data, nil
			case strings.HasPrefix(line, "> err "):
				return data, fmt.Errorf("testenv %s helper: %s %w: %s", s.kind, what, errHelper, strings.TrimPrefix(line, "> err "))
			}
			data = append(data, line)
		case <-ctx.Done():
			s.kill()
			return nil, fmt.Errorf("testenv %s helper: %s: %w", s.kind, what, ctx.Err())
		}
	}
}

// kill ends the helper's process group (the script and its JVM).
func (s *shell) kill() {
	s.dead = true
	s.once.Do(func() { close(s.quit) })
	killGroup(s.cmd)
}

// close asks the helper to quit and waits 10 s for it, then kills it.
func (s *shell) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.dead {
		io.WriteString(s.stdin, "quit\n")
		s.stdin.Close()
	}
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.kill()
		<-s.exited
	}
	s.dead = true
	return nil
}

// shell returns the running helper of kind ("hbase", "kafka"), starting it if needed.
func (c *Cluster) shell(ctx context.Context, kind string) (*shell, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errors.New("cluster: closed")
	}
	if s := c.shells[kind]; s != nil {
		s.mu.Lock()
		dead := s.dead
		s.mu.Unlock()
		if !dead {
			return s, nil
		}
		s.close()
	}
	s, err := startShell(ctx, c.dir, kind)
	if err != nil {
		return nil, err
	}
	c.shells[kind] = s
	return s, nil
}

// do runs one helper command of kind.
func (c *Cluster) do(ctx context.Context, kind string, args ...string) ([]string, error) {
	s, err := c.shell(ctx, kind)
	if err != nil {
		return nil, err
	}
	return s.do(ctx, args...)
}
