//go:build integration

package main

import (
	"bytes"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// kafkaBroker is the Kafka the tests use: the testenv's, or
// GOBENCH_KAFKA_BROKERS (a private broker started with GOBENCH_RUN and
// GOBENCH_KAFKA_PORT, or the 3-broker cluster).
var kafkaBroker = func() string {
	if b := os.Getenv("GOBENCH_KAFKA_BROKERS"); b != "" {
		return b
	}
	return "127.0.0.1:9092"
}()

func requireKafka(t *testing.T) {
	t.Helper()
	addr := strings.Split(kafkaBroker, ",")[0]
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		t.Fatalf("Kafka not reachable at %s (testenv/up.sh kafka, or set GOBENCH_KAFKA_BROKERS): %v", addr, err)
	}
	c.Close()
}

// Kafka's formats (kafka-producer-perf-test.sh, kafka-consumer-perf-test.sh).
var (
	kWindow  = regexp.MustCompile(`^(\d+) records sent, \d+\.\d records/sec \(\d+\.\d\d MB/sec\), \d+\.\d ms avg latency, \d+\.\d ms max latency\.$`)
	kSummary = regexp.MustCompile(`^(\d+) records sent, \d+\.\d+ records/sec \((\d+\.\d\d) MB/sec\), \d+\.\d\d ms avg latency, \d+\.\d\d ms max latency, (\d+) ms 50th, (\d+) ms 95th, (\d+) ms 99th, (\d+) ms 99\.9th\.$`)
	kDate    = `\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}`
	kRow     = regexp.MustCompile(`^` + kDate + `, ` + kDate + `, (\d+\.\d{4}), \d+\.\d{4}, (\d+), \d+\.\d{4}, (\d+), (-?\d+), \d+\.\d{4}, \d+\.\d{4}$`)
	kDetail  = regexp.MustCompile(`^` + kDate + `, 0, \d+\.\d{4}, \d+\.\d{4}, (\d+), \d+\.\d{4}, \d+, -?\d+, \d+\.\d{4}, \d+\.\d{4}$`)
	ycsbLine = regexp.MustCompile(`^\[[A-Za-z_\-%0-9]+\], `)
)

const (
	kSummaryHeader  = "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec"
	kDetailedHeader = "time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec"
)

// kafkaLines splits stdout into Kafka's lines and gobench's report lines
// ([OVERALL], [PRODUCE], ...), failing on anything else.
func kafkaLines(t *testing.T, stdout string) (kafka, report []string) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimRight(stdout, "\n"), "\n") {
		if ycsbLine.MatchString(l) {
			report = append(report, l)
			continue
		}
		if len(report) > 0 {
			t.Errorf("Kafka line %q after gobench's report", l)
		}
		kafka = append(kafka, l)
	}
	return kafka, report
}

func reportValue(t *testing.T, report []string, block, metric string) string {
	t.Helper()
	prefix := "[" + block + "], " + metric + ", "
	for _, l := range report {
		if v, ok := strings.CutPrefix(l, prefix); ok {
			return v
		}
	}
	t.Errorf("report has no %s%s", prefix, "...")
	return ""
}

func producerPerfRun(t *testing.T, topic string, n, size int) {
	t.Helper()
	start := time.Now()
	code, stdout, stderr := gobench(t, t.Context(), "producer-perf", "--topic", topic, "--num-records", strconv.Itoa(n),
		"--record-size", strconv.Itoa(size), "--throughput", "-1", "--bootstrap-server", kafkaBroker, "--print-metrics",
		"--producer-props", "acks=1", "linger.ms=5", "batch.size=65536")
	if code != 0 {
		t.Fatalf("producer-perf %d x %d B: exit %d\n%s\n%s", n, size, code, stdout, stderr)
	}
	lines, report := kafkaLines(t, stdout)
	if len(lines) == 0 {
		t.Fatalf("no output: %s", stderr)
	}
	// --print-metrics: Kafka's table after the final line.
	metrics := map[string]float64{}
	for i, l := range lines {
		if strings.HasPrefix(l, "Metric Name") {
			for _, m := range lines[i+1:] {
				name, v, ok := strings.Cut(m, " : ")
				f, err := strconv.ParseFloat(v, 64)
				if !ok || err != nil {
					t.Errorf("metric line %q is not Kafka's \"name : value\"", m)
				}
				metrics[strings.TrimSpace(name)] = f
			}
			lines = lines[:i-1] // and the empty line before the header
			break
		}
	}
	tag := ":{client-id=perf-producer-client}"
	if got := metrics["producer-metrics:record-send-total"+tag]; got != float64(n) {
		t.Errorf("record-send-total = %v, want %d (metrics %v)", got, n, metrics)
	}
	if got := metrics["producer-metrics:batch-size-avg"+tag]; got < float64(size) || got > float64(max(size, 65536)+1024) {
		t.Errorf("batch-size-avg = %v, want from %d to batch.size", got, size)
	}
	if metrics["producer-metrics:request-latency-avg"+tag] <= 0 {
		t.Errorf("request-latency-avg = %v, want > 0", metrics["producer-metrics:request-latency-avg"+tag])
	}
	for _, l := range lines[:len(lines)-1] {
		if !kWindow.MatchString(l) {
			t.Errorf("window line %q does not match Kafka's format", l)
		}
	}
	last := lines[len(lines)-1]
	m := kSummary.FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("final line %q does not match Kafka's format", last)
	}
	if m[1] != strconv.Itoa(n) {
		t.Errorf("final line reports %s records, want %d", m[1], n)
	}
	p50, _ := strconv.Atoi(m[3])
	p999, _ := strconv.Atoi(m[6])
	if p50 > p999 {
		t.Errorf("50th %d ms > 99.9th %d ms", p50, p999)
	}
	for _, metric := range []string{"Operations", "50thPercentileLatency(us)", "99.99PercentileLatency(us)", "MaxLatency(us)", "Return=OK"} {
		reportValue(t, report, "PRODUCE", metric)
	}
	if ops := reportValue(t, report, "PRODUCE", "Operations"); ops != strconv.Itoa(n) {
		t.Errorf("[PRODUCE] Operations = %s, want %d", ops, n)
	}
	t.Logf("producer-perf %d x %d B in %v: %s", n, size, time.Since(start).Round(time.Millisecond), last)
}

func TestKafkaPerfTools(t *testing.T) {
	requireKafka(t)
	id := strconv.FormatInt(time.Now().UnixNano()%(1<<40), 36)
	small, big := "gobenchtest_perf1k_"+id, "gobenchtest_perf300k_"+id
	producerPerfRun(t, small, 200000, 1024)
	producerPerfRun(t, big, 2000, 300*1024)

	// Summary mode over the 1 KB records.
	code, stdout, stderr := gobench(t, t.Context(), "consumer-perf", "--bootstrap-server", kafkaBroker, "--topic", small,
		"--messages", "200000", "--timeout", "20000")
	if code != 0 {
		t.Fatalf("consumer-perf: exit %d\n%s\n%s", code, stdout, stderr)
	}
	lines, report := kafkaLines(t, stdout)
	if len(lines) != 2 || lines[0] != kSummaryHeader {
		t.Fatalf("consumer-perf printed %q, want the summary header and one row", lines)
	}
	m := kRow.FindStringSubmatch(lines[1])
	if m == nil {
		t.Fatalf("row %q does not match Kafka's format", lines[1])
	}
	// Kafka counts key + value bytes; the records have no key.
	if m[1] != "195.3125" || m[2] != "200000" {
		t.Errorf("row reports %s MB, %s records; want 195.3125 MB (200000 x 1024 B), 200000", m[1], m[2])
	}
	if reportValue(t, report, "CONSUME", "Return=OK") != "200000" {
		t.Errorf("[CONSUME] Return=OK is not 200000")
	}
	t.Logf("consumer-perf 1 KB: %s", lines[1])

	// Detailed mode over the 300 KB records.
	code, stdout, stderr = gobench(t, t.Context(), "consumer-perf", "--bootstrap-server", kafkaBroker, "--topic", big, "--messages", "2000",
		"--show-detailed-stats", "--reporting-interval", "500", "--group", "gobenchtest-"+id, "--timeout", "20000")
	if code != 0 {
		t.Fatalf("consumer-perf --show-detailed-stats: exit %d\n%s\n%s", code, stdout, stderr)
	}
	lines, report = kafkaLines(t, stdout)
	if len(lines) < 1 || lines[0] != kDetailedHeader {
		t.Fatalf("detailed output %q, want the detailed header first", lines)
	}
	for _, l := range lines[1:] {
		if !kDetail.MatchString(l) {
			t.Errorf("detailed row %q does not match Kafka's format", l)
		}
	}
	if got := reportValue(t, report, "CONSUME", "Return=OK"); got != "2000" {
		t.Errorf("[CONSUME] Return=OK = %s, want 2000", got)
	}
	t.Logf("consumer-perf 300 KB: %d detailed rows", len(lines)-1)

	// Asking for more than the topic holds: Kafka's warning after the
	// timeout, then the row of what was consumed.
	code, stdout, stderr = gobench(t, t.Context(), "consumer-perf", "--bootstrap-server", kafkaBroker, "--topic", big, "--messages", "2500", "--timeout", "1500", "--hide-header")
	lines, _ = kafkaLines(t, stdout)
	want := "WARNING: Exiting before consuming the expected number of messages: timeout (1500 ms) exceeded. You can use the --timeout option to increase the timeout."
	if code != 0 || len(lines) != 2 || lines[0] != want || !kRow.MatchString(lines[1]) {
		t.Errorf("consumer-perf past the end: exit %d, lines %q, want the timeout warning and a row\n%s", code, lines, stderr)
	} else if m := kRow.FindStringSubmatch(lines[1]); m[2] != "2000" {
		t.Errorf("consumer-perf past the end consumed %s records, want 2000", m[2])
	}
}

// TestYCSBOnKafka loads and runs workloads A and D on -db kafka; each run is
// a new DB, so reads go through the index rebuilt from the topic.
func TestYCSBOnKafka(t *testing.T) {
	requireKafka(t)
	id := strconv.FormatInt(time.Now().UnixNano()%(1<<40), 36)
	for _, w := range []string{"workloada", "workloadd"} {
		table := "gobenchtest_" + w + "_" + id
		common := []string{"-db", "kafka", "-P", "workloads/" + w, "-p", "table=" + table, "-p", "recordcount=1000",
			"-p", "operationcount=2000", "-threads", "4", "-p", "kafka.partitions=3", "-p", "kafka.brokers=" + kafkaBroker}
		for _, phase := range []string{"load", "run"} {
			code, stdout, stderr := gobench(t, t.Context(), append([]string{phase}, common...)...)
			if code != 0 {
				t.Fatalf("%s %s: exit %d\n%s", phase, w, code, stderr)
			}
			_, report := kafkaLines(t, stdout)
			for _, l := range report {
				if strings.Contains(l, "Return=") && !strings.Contains(l, "Return=OK") {
					t.Errorf("%s %s: %s", phase, w, l)
				}
			}
			ops := map[string]string{"load": "INSERT", "run": "READ"}[phase]
			if got := reportValue(t, report, ops, "Return=OK"); got == "" || got == "0" {
				t.Errorf("%s %s: [%s] Return=OK = %q", phase, w, ops, got)
			}
			t.Logf("%s %s: [%s] Return=OK %s, throughput %s ops/s", phase, w, ops, reportValue(t, report, ops, "Return=OK"),
				reportValue(t, report, "OVERALL", "Throughput(ops/sec)"))
		}
	}
}

// TestYCSBSurvivesStoppedBroker freezes the broker for 4 s (from the first
// status line with operations done, past DB.Prepare) during a 14 s
// workload A run with 1 s request timeouts and a 2 s delivery
// timeout: operations fail (counted under their Return= codes), none takes
// much longer than its timeout, the run ends at its time limit and prints
// the report.
func TestYCSBSurvivesStoppedBroker(t *testing.T) {
	requireKafka(t)
	table := "gobenchtest_ycsbstop_" + strconv.FormatInt(time.Now().UnixNano()%(1<<40), 36)
	common := []string{"-db", "kafka", "-P", "workloads/workloada", "-p", "table=" + table, "-p", "recordcount=500",
		"-threads", "4", "-p", "kafka.timeout=1000", "-p", "kafka.deliverytimeout=2000", "-p", "kafka.brokers=" + kafkaBroker}
	if code, _, stderr := gobench(t, t.Context(), append([]string{"load"}, common...)...); code != 0 {
		t.Fatalf("load: exit %d\n%s", code, stderr)
	}
	// The stall starts at the first status line, inside the measured phase
	// (after DB.Prepare's index build, however long a loaded machine makes it).
	w := newStatusWatch()
	stallBrokerOn(t, w.started, 4*time.Second)
	start := time.Now()
	var out bytes.Buffer
	code := run(t.Context(), append([]string{"run", "-s", "-p", "status.interval=1", "-p", "operationcount=0", "-p", "maxexecutiontime=14"}, common...), &out, w)
	took := time.Since(start)
	stdout, stderr := out.String(), w.String()
	select {
	case <-w.started:
	default:
		t.Fatalf("no status line: the broker was never stalled (exit %d):\n%s", code, stderr)
	}
	_, report := kafkaLines(t, stdout)
	if len(report) == 0 {
		t.Fatalf("no report after a broker stall (exit %d):\n%s", code, stderr)
	}
	if took > 30*time.Second {
		t.Errorf("a 14 s run with a 4 s stall took %v", took)
	}
	var failed []string
	for _, l := range report {
		if strings.Contains(l, "Return=") && !strings.Contains(l, "Return=OK") {
			failed = append(failed, l)
		}
	}
	if len(failed) == 0 {
		t.Errorf("no failed operations counted during a 4 s stall with 1 s timeouts")
	}
	// No operation outlives its bound by much: a read its 1 s request
	// timeout (and one retry), an update the 2 s delivery timeout (as
	// Java's delivery.timeout.ms bounds send to callback).
	for _, op := range []string{"READ", "UPDATE"} {
		if us, err := strconv.ParseFloat(reportValue(t, report, op, "MaxLatency(us)"), 64); err != nil || us > 3.5e6 {
			t.Errorf("[%s] MaxLatency(us) %q: want at most 3.5 s with kafka.timeout=1000 and kafka.deliverytimeout=2000", op, reportValue(t, report, op, "MaxLatency(us)"))
		}
	}
	t.Logf("stalled run: exit %d in %v; %s; OK reads %s", code, took.Round(time.Millisecond), strings.Join(failed, "; "),
		reportValue(t, report, "READ", "Return=OK"))
}
