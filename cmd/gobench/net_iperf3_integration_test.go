//go:build integration

package main

import (
	"context"
	"encoding/json"
	"net"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// iperf3Bin finds Debian's iperf3; the test command installs it
// (testenv/tools.sh). Missing, the test fails: it does not skip.
func iperf3Bin(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("iperf3")
	if err != nil {
		t.Fatal("iperf3 is not installed (apt-get install iperf3; testenv/tools.sh does it)")
	}
	return p
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, p, _ := net.SplitHostPort(l.Addr().String())
	return p
}

// gobench net -c against a real iperf3 -s, both directions: iperf3's
// server counts what gobench sent, and gobench prints both ends' lines.
func TestNetClientAgainstIperf3Server(t *testing.T) {
	bin := iperf3Bin(t)
	for _, rev := range []bool{false, true} {
		port := freePort(t)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		srv := exec.CommandContext(ctx, bin, "-s", "-1", "-B", "127.0.0.1", "-p", port, "-J")
		srvOut := &syncBuffer{}
		srv.Stdout = srvOut
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		args := []string{"net", "-c", "127.0.0.1", "-p", port, "-t", "1", "-P", "2"}
		if rev {
			args = append(args, "-R")
		}
		code, out, errs := gobench(t, context.Background(), args...)
		srv.Wait()
		cancel()
		if code != 0 {
			t.Fatalf("reverse=%v: exit %d\n%s\n%s", rev, code, out, errs)
		}
		if !regexp.MustCompile(`(?m)^\[SUM\]   0\.00-1\.\d\d   sec .* receiver$`).MatchString(out) ||
			!regexp.MustCompile(`(?m)^\[SUM\]   0\.00-1\.\d\d   sec .* sender$`).MatchString(out) {
			t.Fatalf("reverse=%v: no sender and receiver sums (the server's results?):\n%s", rev, out)
		}
		var doc struct {
			End struct {
				SumReceived struct{ Bytes int64 } `json:"sum_received"`
				SumSent     struct{ Bytes int64 } `json:"sum_sent"`
			} `json:"end"`
		}
		// iperf3 -s reports only its own side: received bytes, or (in
		// reverse) sent bytes.
		if err := json.Unmarshal([]byte(srvOut.String()), &doc); err != nil || max(doc.End.SumReceived.Bytes, doc.End.SumSent.Bytes) <= 0 {
			t.Fatalf("reverse=%v: iperf3 server's JSON: %v\n%s", rev, err, srvOut)
		}
	}
}

// iperf3 -c against gobench net -s: iperf3 gets gobench's results (its
// receiver line is gobench's count), in both directions.
func TestIperf3ClientAgainstNetServer(t *testing.T) {
	bin := iperf3Bin(t)
	port, sout, serr, stop := startNetServer(t)
	for _, rev := range []bool{false, true} {
		args := []string{"-c", "127.0.0.1", "-p", port, "-t", "1", "-P", "2", "-J"}
		if rev {
			args = append(args, "-R")
		}
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("reverse=%v: iperf3 -c: %v\n%s\nserver:\n%s\n%s", rev, err, out, sout, serr)
		}
		var doc struct {
			End struct {
				Streams []struct {
					Receiver struct{ Bytes int64 } `json:"receiver"`
				} `json:"streams"`
				SumReceived struct{ Bytes int64 } `json:"sum_received"`
				SumSent     struct{ Bytes int64 } `json:"sum_sent"`
			} `json:"end"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(out, &doc); err != nil || doc.Error != "" || len(doc.End.Streams) != 2 ||
			doc.End.SumReceived.Bytes <= 0 || doc.End.SumReceived.Bytes > doc.End.SumSent.Bytes {
			t.Fatalf("reverse=%v: iperf3's JSON: %v %+v\n%s\nserver:\n%s\n%s", rev, err, doc, out, sout, serr)
		}
		// iperf3's receiver bytes (reverse: its sender's) are gobench's.
		re := regexp.MustCompile(`(?m)^\[SUM\]   0\.00-1\.\d\d   sec .* (sender|receiver)$`)
		want := 2
		if rev {
			want = 4
		}
		for deadline := time.Now().Add(5 * time.Second); len(re.FindAllString(sout.String(), -1)) < want; {
			if time.Now().After(deadline) {
				t.Fatalf("reverse=%v: server output:\n%s", rev, sout)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if c := stop(); c != 0 {
		t.Fatalf("server exit %d", c)
	}
}
