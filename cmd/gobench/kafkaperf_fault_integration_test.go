//go:build integration

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The fault tests kill, restart or freeze the broker the tests use. Which
// one, and how it comes back with its data:
//   - GOBENCH_KAFKA_PIDFILE: its pid file (default
//     $GOBENCH_RUN/kafka/pid, GOBENCH_RUN defaulting to /tmp/gobench-testenv);
//   - GOBENCH_KAFKA_RESTART: the shell command, run from the repository root,
//     that starts it again on its data (default
//     GOBENCH_KAFKA_KEEP_DATA=1 testenv/up.sh kafka, which inherits
//     GOBENCH_RUN and GOBENCH_KAFKA_PORT).
// On the 3-broker cluster, point both at the leader of the topic's
// partition 0. Run them under flock /tmp/gobench-realservers.lock when the
// broker is the shared one.

func brokerPidFile() string {
	if f := os.Getenv("GOBENCH_KAFKA_PIDFILE"); f != "" {
		return f
	}
	dir := os.Getenv("GOBENCH_RUN")
	if dir == "" {
		dir = "/tmp/gobench-testenv"
	}
	return filepath.Join(dir, "kafka", "pid")
}

func brokerPid(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile(brokerPidFile())
	if err != nil {
		t.Fatalf("no Kafka pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("bad pid file %s: %v", brokerPidFile(), err)
	}
	return pid
}

// stallBroker freezes the broker (SIGSTOP) after delay for d, then resumes
// it.
func stallBroker(t *testing.T, delay, d time.Duration) {
	t.Helper()
	pid := brokerPid(t)
	go func() {
		time.Sleep(delay)
		syscall.Kill(pid, syscall.SIGSTOP)
		defer syscall.Kill(pid, syscall.SIGCONT)
		time.Sleep(d)
	}()
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) })
}

// stallBrokerOn freezes the testenv broker (SIGSTOP) for d once start is
// closed, and lets it go on (SIGCONT) after, or when the test ends.
func stallBrokerOn(t *testing.T, start <-chan struct{}, d time.Duration) {
	t.Helper()
	pid := brokerPid(t)
	go func() {
		<-start
		syscall.Kill(pid, syscall.SIGSTOP)
		defer syscall.Kill(pid, syscall.SIGCONT)
		time.Sleep(d)
	}()
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) })
}

// statusWatch is a stderr that closes started at the first status line
// with operations done ("N sec: M operations", M > 0): the measured phase.
type statusWatch struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	started chan struct{}
	once    sync.Once
}

func newStatusWatch() *statusWatch { return &statusWatch{started: make(chan struct{})} }

// A status line with operations done: the reporter prints "0 sec: 0
// operations" before the set-up (DB.Prepare) is over.
var statusLine = regexp.MustCompile(` [0-9]+ sec: [1-9][0-9]* operations`)

func (w *statusWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if statusLine.Match(w.buf.Bytes()) {
		w.once.Do(func() { close(w.started) })
	}
	return len(p), nil
}

func (w *statusWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// restartBroker SIGKILLs the broker after delay and starts it again on its
// data; done receives the restart's error (nil once it is ready). The test
// leaves a broker running either way.
func restartBroker(t *testing.T, delay time.Duration) <-chan error {
	t.Helper()
	pid := brokerPid(t)
	cmdline := os.Getenv("GOBENCH_KAFKA_RESTART")
	if cmdline == "" {
		cmdline = "GOBENCH_KAFKA_KEEP_DATA=1 testenv/up.sh kafka"
	}
	done := make(chan error, 1)
	go func() {
		time.Sleep(delay)
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			done <- err
			return
		}
		for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
		cmd := exec.Command("bash", "-c", cmdline)
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("restart %q: %s", cmdline, out)
		}
		done <- err
	}()
	return done
}

// consumeAll reads topic from the single-node broker (see consumeFrom).
func consumeAll(t *testing.T, topic string, want int) map[int32][]string {
	t.Helper()
	return consumeFrom(t, kafkaBroker, topic, want)
}

// TestProducerPerfSurvivesBrokerRestart: producer-perf of 300 000 records
// at 10 000 records/s while the broker is SIGKILLed after 5 s and started
// again on its data: every record is acknowledged, the topic holds each
// payload index exactly once, in send order within each partition.
// delivery.timeout.ms is raised to 300 s because a broker start takes up
// to a minute on the loaded 2-core test machine.
func TestProducerPerfSurvivesBrokerRestart(t *testing.T) {
	requireKafka(t)
	topic := "gobenchtest_restart_" + strconv.FormatInt(time.Now().UnixNano()%(1<<40), 36)
	const n = 300000
	restarted := restartBroker(t, 5*time.Second)
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()
	start := time.Now()
	code, stdout, stderr := gobench(t, ctx, "producer-perf", "--topic", topic, "--num-records", strconv.Itoa(n), "--payload-monotonic",
		"--throughput", "10000", "--bootstrap-server", kafkaBroker,
		"--producer-props", "kafka.partitions=3", "delivery.timeout.ms=300000")
	took := time.Since(start)
	if err := <-restarted; err != nil {
		t.Fatalf("broker restart: %v", err)
	}
	lines, report := kafkaLines(t, stdout)
	if code != 0 || len(lines) == 0 || !kSummary.MatchString(lines[len(lines)-1]) {
		t.Fatalf("producer-perf across a broker restart: exit %d\n%s\n%s", code, stdout, stderr)
	}
	m := kSummary.FindStringSubmatch(lines[len(lines)-1])
	if m[1] != strconv.Itoa(n) || reportValue(t, report, "PRODUCE", "Return=OK") != strconv.Itoa(n) {
		t.Errorf("acknowledged %s records (report %s), want %d", m[1], reportValue(t, report, "PRODUCE", "Return=OK"), n)
	}
	t.Logf("broker restarted during the run: %v; %s", took.Round(time.Millisecond), lines[len(lines)-1])
	checkMonotonic(t, consumeAll(t, topic, n), n)
}

// TestProducerPerfSurvivesFrozenBroker freezes the broker (SIGSTOP) for
// 8 s during a throttled producer-perf run: nothing is lost (every record
// acknowledged, each payload once), the report is printed, the run ends in
// bounded time.
func TestProducerPerfSurvivesFrozenBroker(t *testing.T) {
	requireKafka(t)
	stallBroker(t, 3*time.Second, 8*time.Second)
	topic := "gobenchtest_stop_" + strconv.FormatInt(time.Now().UnixNano()%(1<<40), 36)
	const n = 100000
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	code, stdout, stderr := gobench(t, ctx, "producer-perf", "--topic", topic, "--num-records", strconv.Itoa(n), "--payload-monotonic",
		"--throughput", "10000", "--bootstrap-server", kafkaBroker, "--producer-props", "kafka.partitions=3")
	took := time.Since(start)
	lines, report := kafkaLines(t, stdout)
	if len(lines) == 0 || !kSummary.MatchString(lines[len(lines)-1]) || len(report) == 0 {
		t.Fatalf("no Kafka summary line or report after a frozen broker (exit %d):\n%s\n%s", code, stdout, stderr)
	}
	if code != 0 {
		t.Errorf("exit %d after a frozen broker, want 0 (nothing lost)\n%s", code, stderr)
	}
	if took > 90*time.Second {
		t.Errorf("run took %v with an 8 s freeze of a 10 s run, want under 90 s", took)
	}
	if ok := reportValue(t, report, "PRODUCE", "Return=OK"); ok != strconv.Itoa(n) {
		t.Errorf("acknowledged %s records, want %d", ok, n)
	}
	t.Logf("broker frozen 8 s: exit %d in %v; %s", code, took.Round(time.Millisecond), lines[len(lines)-1])
	checkMonotonic(t, consumeAll(t, topic, n), n)
}
