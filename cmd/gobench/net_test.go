package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startNetServer runs gobench net -s on a free loopback port in process;
// stop cancels it as Ctrl-C does and returns its exit code.
func startNetServer(t *testing.T, extra ...string) (port string, out, errs *syncBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errs = &syncBuffer{}, &syncBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"net", "-s", "-p", "0", "-B", "127.0.0.1"}, extra...), out, errs)
	}()
	re := regexp.MustCompile(`Server listening on (\d+) \(test #1\)`)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1], out, errs, func() int { cancel(); return <-code }
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	t.Fatalf("the server did not start:\n%s\n%s", out, errs)
	return
}

// gobench net end to end: the client's interval and summary lines in
// iperf3's shape, its -J document, and the server's report per client and
// its clean stop on Ctrl-C.
func TestNetClientServerLinesJSONAndCleanStop(t *testing.T) {
	port, sout, serr, stop := startNetServer(t)
	code, out, errs := gobench(t, context.Background(), "net", "-c", "127.0.0.1", "-p", port, "-t", "1", "-P", "2", "-l", "64K")
	if code != 0 {
		t.Fatalf("client exit %d\n%s\n%s", code, out, errs)
	}
	for _, re := range []string{
		`(?m)^Connecting to host 127\.0\.0\.1, port ` + port + `$`,
		`(?m)^\[\s*\d+\] local 127\.0\.0\.1 port \d+ connected to 127\.0\.0\.1 port ` + port + `$`,
		`(?m)^\[ ID\] Interval           Transfer     Bitrate         Retr  Cwnd$`,
		`(?m)^\[SUM\]   0\.00-1\.\d\d   sec\s+[\d.]+ [KMG]?Bytes\s+[\d.]+ [KMG]?bits/sec\s+\d+\s+$`, // the interval ends when its tick runs: 1.01 on a loaded machine
		`(?m)^\[SUM\]   0\.00-1\.\d\d   sec\s+[\d.]+ [KMG]?Bytes\s+[\d.]+ [KMG]?bits/sec\s+\d+\s+sender$`,
		`(?m)^\[SUM\]   0\.00-1\.\d\d   sec\s+[\d.]+ [KMG]?Bytes\s+[\d.]+ [KMG]?bits/sec\s+receiver$`,
		`(?m)^iperf Done\.$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("client output lacks %s:\n%s", re, out)
		}
	}
	code, out, errs = gobench(t, context.Background(), "net", "-c", "127.0.0.1", "-p", port, "-t", "1", "-R", "-J")
	if code != 0 {
		t.Fatalf("client -R -J exit %d\n%s\n%s", code, out, errs)
	}
	var doc struct {
		Start struct {
			Connected []struct{ LocalPort, RemotePort int } `json:"connected"`
			TestStart struct{ Reverse, NumStreams int }     `json:"test_start"`
		} `json:"start"`
		Intervals []json.RawMessage `json:"intervals"`
		End       struct {
			SumSent     struct{ Bytes int64 } `json:"sum_sent"`
			SumReceived struct {
				Bytes         int64
				BitsPerSecond float64 `json:"bits_per_second"`
			} `json:"sum_received"`
		} `json:"end"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("-J output is not JSON: %v\n%s", err, out)
	}
	if len(doc.Start.Connected) != 1 || doc.Start.TestStart.Reverse != 1 || len(doc.Intervals) < 1 ||
		doc.End.SumReceived.Bytes <= 0 || doc.End.SumReceived.BitsPerSecond <= 0 || doc.End.SumSent.Bytes < doc.End.SumReceived.Bytes {
		t.Fatalf("JSON document: %+v", doc)
	}
	// The client is done once it has the results; the server may still be
	// printing its report of that test: wait for it to listen again.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !strings.Contains(sout.String(), "(test #3)"); {
		time.Sleep(10 * time.Millisecond)
	}
	if c := stop(); c != 0 {
		t.Fatalf("server exit %d after Ctrl-C\n%s", c, serr)
	}
	so, se := sout.String(), serr.String()
	if strings.Count(so, "Accepted connection from 127.0.0.1") != 2 || !strings.Contains(so, "Server listening on "+port+" (test #3)") {
		t.Errorf("server output:\n%s", so)
	}
	if !regexp.MustCompile(`(?m)^\[SUM\]   0\.00-1\.\d\d   sec .* receiver$`).MatchString(so) {
		t.Errorf("server lacks its receiver summary:\n%s", so)
	}
	if !strings.Contains(se, "server stopped after 2 test(s)") || !strings.Contains(se, "#2 127.0.0.1:") || !strings.Contains(se, "server sends") {
		t.Errorf("server's closing lines:\n%s", se)
	}
}

func TestNetBadInputAndUnreachable(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"net"}, "-s (server) or -c HOST"},
		{[]string{"net", "-c", "127.0.0.1", "-P", "0"}, "threadcount"},
		{[]string{"net", "-c", "127.0.0.1", "-f", "x"}, "-f"},
		{[]string{"net", "-c", "127.0.0.1", "-l", "9Q"}, "net.len"},
		{[]string{"net", "-s", "-c", "x"}, "give one"},
	} {
		code, _, errs := gobench(t, context.Background(), c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, want 2 naming %q:\n%s", c.args, code, c.want, errs)
		}
	}
	code, _, errs := gobench(t, context.Background(), "net", "-c", "127.0.0.1", "-p", "1", "-t", "1")
	if code != 1 || !strings.Contains(errs, "127.0.0.1:1") || strings.Count(errs, "127.0.0.1:1") > 2 {
		t.Errorf("unreachable: exit %d, want 1 naming the address once:\n%s", code, errs)
	}
}
