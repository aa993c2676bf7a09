package secure

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Check fails (a test must not skip) unless the KDC and every node of the named
// systems ("hdfs", "hbase", "kafka"; the KDC always) listen; the error names the nodes
// and the up command. Whether a port listens is asked of the kernel where it can
// (/proc/net/tcp), not by connecting: a probe connection makes the DataNode and the
// broker log a failed handshake.
func (e *Env) Check(systems ...string) error {
	want := []string{"kdc"}
	for _, s := range systems {
		if s == "kdc" {
			continue
		}
		ns, ok := systemNodes[s]
		if !ok {
			return fmt.Errorf("secure: unknown system %q (want kdc, hdfs, hbase or kafka)", s)
		}
		want = append(want, ns...)
	}
	var down []string
	if _, err := os.Stat(e.Krb5Conf()); err != nil {
		down = append(down, "no "+e.Krb5Conf())
	}
	for _, n := range want {
		for _, nd := range nodes {
			if nd.name == n && !listening(nd.ports[0]) {
				down = append(down, fmt.Sprintf("%s (127.0.0.1:%d) down", n, nd.ports[0]))
			}
		}
	}
	if len(down) > 0 {
		return fmt.Errorf("testenv secured servers not up (%s); start them with: testenv/up.sh --secure %s",
			strings.Join(down, ", "), strings.Join(systems, " "))
	}
	return nil
}

// listening reports whether something listens on 127.0.0.1:port (or 0.0.0.0).
func listening(port int) bool {
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 2*time.Second)
		if err != nil {
			return false
		}
		c.Close()
		return true
	}
	defer f.Close()
	return listeningIn(bufio.NewScanner(f), port)
}

// listeningIn scans /proc/net/tcp lines ("sl local_address rem_address st ...") for a
// socket in state LISTEN (0A) on 127.0.0.1 (0100007F) or 0.0.0.0 at port.
func listeningIn(s *bufio.Scanner, port int) bool {
	suffix := fmt.Sprintf(":%04X", port)
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) < 4 || f[3] != "0A" || !strings.HasSuffix(f[1], suffix) {
			continue
		}
		if h := strings.TrimSuffix(f[1], suffix); h == "0100007F" || h == "00000000" {
			return true
		}
	}
	return false
}

// Script runs testenv/NAME (e.g. "ycsb.sh", "kafka-perf.sh") with args and returns its
// standard output and standard error, each whole. The error (exit status) comes with
// the last lines of standard error.
func (e *Env) Script(ctx context.Context, name string, stdin string, args ...string) (stdout, stderr string, err error) {
	if e.dirErr != nil {
		return "", "", e.dirErr
	}
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(e.dir, name)}, args...)...)
	cmd.Env = append(os.Environ(), "GOBENCH_RUN="+e.run)
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	setProcessGroup(cmd)
	err = cmd.Run()
	if err != nil {
		err = fmt.Errorf("testenv/%s %s: %w: %s", name, strings.Join(args, " "), err, lastLines(errb.String(), 6))
	}
	return out.String(), errb.String(), err
}

// ExitCode is the exit status in an error from [Env.Script] or the admin helpers, -1
// if there is none.
func ExitCode(err error) int {
	var ee *exec.ExitError
	for u := err; u != nil; {
		if x, ok := u.(*exec.ExitError); ok {
			ee = x
			break
		}
		w, ok := u.(interface{ Unwrap() error })
		if !ok {
			break
		}
		u = w.Unwrap()
	}
	if ee == nil {
		return -1
	}
	return ee.ExitCode()
}

// Kinit gets name a ticket from its keytab (kinit -kt) into [Env.CCache](name) and
// returns the cache's path, for KRB5CCNAME.
func (e *Env) Kinit(ctx context.Context, name string) (string, error) {
	out, _, err := e.Script(ctx, "secure.sh", "", "kinit", name)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// HBaseAdmin runs SecureHBaseAdmin commands (one a line, e.g. "grant jason RWXCA
// @ycsb_hbase_ns", "create ns:t family 44 --drop") as the user as ("hbase": the
// superuser; "jason", "nogrant": from their keytabs). An AccessDeniedException is exit
// status 3 ([ExitCode]) with "FORBIDDEN:" in the message.
func (e *Env) HBaseAdmin(ctx context.Context, as string, commands ...string) (string, error) {
	out, _, err := e.Script(ctx, "secure.sh", strings.Join(commands, "\n")+"\n", "hbase", "--as", as, "-")
	return out, err
}

// KafkaAdmin runs SecureKafkaAdmin commands (e.g. "create gobench-t 2", "allow
// User:nogrant topic gobench-t literal READ") as the superuser kafka.
func (e *Env) KafkaAdmin(ctx context.Context, commands ...string) (string, error) {
	out, _, err := e.Script(ctx, "secure.sh", strings.Join(commands, "\n")+"\n", "kafka", "-")
	return out, err
}

// HDFS runs FsShell command lines (e.g. "-put /etc/hosts /user/jason/h") as the user
// as ("nn": the superuser; "jason", "nogrant" from their keytabs; "ticket": the cache
// KRB5CCNAME names in the environment), in one JVM.
func (e *Env) HDFS(ctx context.Context, as string, commands ...string) (stdout, stderr string, err error) {
	return e.Script(ctx, "secure.sh", "", append([]string{"hdfs", "--as", as}, commands...)...)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
