//go:build secure

package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/testenv/secure"
)

// The Kafka half of the secured testenv: producer-perf, consumer-perf and
// -db kafka over SASL_SSL with the testenv's client files (Java's names, as
// a user's), beside Kafka's own perf tools with the same files.

var (
	kafkaProducedRe = regexp.MustCompile(`(?m)^(\d+) records sent, [0-9.]+ records/sec`)
	kafkaConsumedRe = regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d [0-9:]+, \d{4}-\d\d-\d\d [0-9:]+, [0-9.]+, [0-9.]+, (\d+),`)
)

func secureKafkaEnv(t *testing.T) *secure.Env {
	t.Helper()
	e, err := secure.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Check("kafka"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KRB5_CONFIG", e.Krb5Conf()) // as eval "$(testenv/secure.sh env)" sets it
	return e
}

// kafkaSecrets are the strings no output may hold: every password of the
// run directory and the JAAS configurations of the client files used.
func kafkaSecrets(t *testing.T, e *secure.Env, files ...string) []string {
	t.Helper()
	s := e.Secrets()
	if len(s) < 3 {
		t.Fatalf("only %d secrets in %s", len(s), e.Dir())
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "sasl.jaas.config="); ok {
				s = append(s, strings.TrimSpace(v))
			}
		}
	}
	return append(s, "LoginModule required")
}

func assertNoSecrets(t *testing.T, secrets []string, outputs map[string]string) {
	t.Helper()
	if len(outputs) == 0 {
		t.Fatal("no outputs to check")
	}
	for name, o := range outputs {
		for _, s := range secrets {
			if s != "" && strings.Contains(o, s) {
				t.Errorf("%s holds a secret or JAAS configuration (%d bytes)", name, len(s))
			}
		}
	}
}

func lastCount(re *regexp.Regexp, out string) string {
	m := re.FindAllStringSubmatch(out, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// TestSecureKafkaPerfSCRAMAndGSSAPI: over SASL_SSL with SCRAM-SHA-512 and
// with GSSAPI (keytab), gobench's producer-perf and Kafka's
// ProducerPerformance each write 100 000 records with the same client file,
// then consumer-perf and ConsumerPerformance each read all 200 000.
func TestSecureKafkaPerfSCRAMAndGSSAPI(t *testing.T) {
	e := secureKafkaEnv(t)
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Minute)
	defer cancel()
	const n = 100000
	outs := map[string]string{}
	var files []string
	for _, mode := range []string{secure.KafkaSCRAM, secure.KafkaGSSAPI} {
		file := e.KafkaProps(secure.Jason, mode)
		files = append(files, file)
		topic := secure.KafkaPrefix + "-perf-" + mode + "-" + strconv.FormatInt(time.Now().UnixNano()%1e9, 36)
		if out, err := e.KafkaAdmin(ctx, "create "+topic+" 2"); err != nil {
			t.Fatalf("create %s: %v %s", topic, err, out)
		}
		t.Cleanup(func() { e.KafkaAdmin(context.Background(), "delete "+topic) })
		code, so, se := gobench(t, ctx, "producer-perf", "--topic", topic, "--num-records", strconv.Itoa(n), "--record-size", "100",
			"--throughput", "-1", "--producer.config", file, "--producer-props", "acks=all")
		outs["producer-perf "+mode+" stdout"], outs["producer-perf "+mode+" stderr"] = so, se
		if code != 0 || lastCount(kafkaProducedRe, so) != strconv.Itoa(n) {
			t.Fatalf("producer-perf %s: exit %d, want %d records sent:\n%s\n%s", mode, code, n, so, se)
		}
		if !strings.Contains(so, "[PRODUCE], Return=OK, "+strconv.Itoa(n)) {
			t.Errorf("producer-perf %s: report lacks Return=OK, %d:\n%s", mode, n, so)
		}
		jso, jse, err := e.Script(ctx, "kafka-perf.sh", "", "--secure", "jason-"+mode, "producer", "--topic", topic,
			"--num-records", strconv.Itoa(n), "--record-size", "100", "--throughput", "-1", "--command-property", "acks=all")
		outs["Kafka producer "+mode] = jso + jse
		if err != nil || lastCount(kafkaProducedRe, jso+jse) != strconv.Itoa(n) {
			t.Fatalf("Kafka's producer %s: %v, want %d records sent:\n%s%s", mode, err, n, jso, jse)
		}
		code, so, se = gobench(t, ctx, "consumer-perf", "--topic", topic, "--messages", strconv.Itoa(2*n), "--group", topic+"-gobench",
			"--consumer.config", file, "--timeout", "60000")
		outs["consumer-perf "+mode+" stdout"], outs["consumer-perf "+mode+" stderr"] = so, se
		if code != 0 || lastCount(kafkaConsumedRe, so) != strconv.Itoa(2*n) {
			t.Fatalf("consumer-perf %s: exit %d, want %d records:\n%s\n%s", mode, code, 2*n, so, se)
		}
		jso, jse, err = e.Script(ctx, "kafka-perf.sh", "", "--secure", "jason-"+mode, "consumer", "--topic", topic,
			"--group", topic+"-java", "--num-records", strconv.Itoa(2*n), "--timeout", "120000")
		outs["Kafka consumer "+mode] = jso + jse
		if err != nil || lastCount(kafkaConsumedRe, jso+jse) != strconv.Itoa(2*n) {
			t.Fatalf("Kafka's consumer %s: %v, want %d records:\n%s%s", mode, err, 2*n, jso, jse)
		}
	}
	assertNoSecrets(t, kafkaSecrets(t, e, files...), outs)
}

// TestSecureKafkaForbiddenAndRefused: nogrant (valid SCRAM user, no ACL)
// gets FORBIDDEN for every record, the report printed, exit 1; a wrong
// password is refused before the run (exit 1, naming the user, no report);
// bad security values are configuration errors (exit 2) naming the
// property; no output holds a secret.
func TestSecureKafkaForbiddenAndRefused(t *testing.T) {
	e := secureKafkaEnv(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	outs := map[string]string{}
	topic := secure.KafkaPrefix + "-forbidden-" + strconv.FormatInt(time.Now().UnixNano()%1e9, 36)
	if out, err := e.KafkaAdmin(ctx, "create "+topic+" 1"); err != nil {
		t.Fatalf("create %s: %v %s", topic, err, out)
	}
	t.Cleanup(func() { e.KafkaAdmin(context.Background(), "delete "+topic) })
	ngFile := e.KafkaProps(secure.NoGrant, secure.KafkaSCRAM)
	code, so, se := gobench(t, ctx, "producer-perf", "--topic", topic, "--num-records", "500", "--record-size", "100",
		"--throughput", "-1", "--producer.config", ngFile)
	outs["nogrant producer stdout"], outs["nogrant producer stderr"] = so, se
	if code != 1 || !strings.Contains(so, "[PRODUCE], Return=FORBIDDEN, 500") || strings.Contains(so, "Return=OK") {
		t.Errorf("nogrant producer-perf: exit %d, want 1 and Return=FORBIDDEN, 500:\n%s\n%s", code, so, se)
	}
	code, so, se = gobench(t, ctx, "consumer-perf", "--topic", topic, "--messages", "10", "--group", secure.KafkaPrefix+"-ng",
		"--consumer.config", ngFile, "--timeout", "20000")
	outs["nogrant consumer stdout"], outs["nogrant consumer stderr"] = so, se
	if code != 1 || !strings.Contains(so, "Return=FORBIDDEN") {
		t.Errorf("nogrant consumer-perf: exit %d, want 1 and FORBIDDEN:\n%s\n%s", code, so, se)
	}

	// A wrong password: the user's file with another password.
	good, err := os.ReadFile(e.KafkaProps(secure.Jason, secure.KafkaSCRAM))
	if err != nil {
		t.Fatal(err)
	}
	pw, err := e.Password(secure.Jason)
	if err != nil {
		t.Fatal(err)
	}
	const badPW = "Not-Jasons-Password-7"
	bad := filepath.Join(t.TempDir(), "bad.properties")
	if err := os.WriteFile(bad, []byte(strings.ReplaceAll(string(good), `password="`+pw+`"`, `password="`+badPW+`"`)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"producer-perf", "consumer-perf"} {
		args := []string{tool, "--topic", topic, "--num-records", "10", "--record-size", "10", "--throughput", "-1", "--producer.config", bad}
		if tool == "consumer-perf" {
			args = []string{tool, "--topic", topic, "--messages", "10", "--consumer.config", bad}
		}
		code, so, se = gobench(t, ctx, args...)
		outs[tool+" wrong password stdout"], outs[tool+" wrong password stderr"] = so, se
		if code != 1 || !strings.Contains(se, "authentication of jason (SASL SCRAM-SHA-512)") || strings.Contains(so, "[OVERALL]") {
			t.Errorf("%s with a wrong password: exit %d, want 1, refused before the run naming jason:\n%s\n%s", tool, code, so, se)
		}
		if strings.Contains(so+se, badPW) {
			t.Errorf("%s: output holds the wrong password", tool)
		}
	}
	// Configuration errors: exit 2 naming the property.
	for _, c := range []struct{ prop, want string }{
		{"security.protocol=SASL_TLS", "kafka.security.protocol"},
		{"sasl.mechanism=SCRAM-SHA-1", "kafka.sasl.mechanism"},
		{"ssl.truststore.password=wrong-store-pw", "kafka.ssl.truststore.location"},
	} {
		code, so, se = gobench(t, ctx, "producer-perf", "--topic", topic, "--num-records", "1", "--record-size", "1", "--throughput", "-1",
			"--producer.config", e.KafkaProps(secure.Jason, secure.KafkaSCRAM), "--producer-props", c.prop)
		outs["config error "+c.prop] = so + se
		if code != 2 || !strings.Contains(se, c.want) {
			t.Errorf("%s: exit %d, want 2 naming %s:\n%s", c.prop, code, c.want, se)
		}
	}
	assertNoSecrets(t, kafkaSecrets(t, e, ngFile, e.KafkaProps(secure.Jason, secure.KafkaSCRAM)), outs)
}

// TestSecureKafkaYCSBNoSecretInAnyOutput: -db kafka load and run
// (workload A) over SASL_SSL with SCRAM, the properties given as
// kafka.<Java name>; the JSON result, the HTML report made from it, the
// live /metrics, stdout and stderr hold no password or JAAS text.
func TestSecureKafkaYCSBNoSecretInAnyOutput(t *testing.T) {
	e := secureKafkaEnv(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	file := e.KafkaProps(secure.Jason, secure.KafkaSCRAM)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var conf strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		if v, ok := strings.CutPrefix(l, "bootstrap.servers="); ok {
			conf.WriteString("kafka.brokers=" + v + "\n")
		} else {
			conf.WriteString("kafka." + l + "\n")
		}
	}
	props := filepath.Join(dir, "kafka-secure.properties")
	if err := os.WriteFile(props, []byte(conf.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	table := secure.KafkaPrefix + "-ycsb-" + strconv.FormatInt(time.Now().UnixNano()%1e9, 36)
	t.Cleanup(func() { e.KafkaAdmin(context.Background(), "delete "+table) })
	outs := map[string]string{}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	promAddr := l.Addr().String()
	l.Close()
	common := []string{"-db", "kafka", "-w", "workloada", "-P", props, "-p", "table=" + table, "-p", "recordcount=3000",
		"-p", "operationcount=3000", "-threads", "4"}
	scraped := make(chan string, 1)
	go func() {
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			resp, err := http.Get("http://" + promAddr + "/metrics")
			if err != nil {
				continue
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(b), "gobench_ops_total") {
				scraped <- string(b)
				return
			}
		}
		scraped <- ""
	}()
	code, so, se := gobench(t, ctx, append([]string{"load"}, append(common, "-p", "gobench.prometheus="+promAddr)...)...)
	outs["load stdout"], outs["load stderr"] = so, se
	if code != 0 || !strings.Contains(so, "[INSERT], Return=OK, 3000") {
		t.Fatalf("load: exit %d:\n%s\n%s", code, so, se)
	}
	metrics := <-scraped
	if metrics == "" {
		t.Error("no /metrics scraped during the load")
	}
	outs["/metrics"] = metrics
	jsonFile := filepath.Join(dir, "run.json")
	code, so, se = gobench(t, ctx, append([]string{"run"}, append(common, "-p", "exporter=json", "-p", "exportfile="+jsonFile)...)...)
	outs["run stdout"], outs["run stderr"] = so, se
	if code != 0 {
		t.Fatalf("run: exit %d:\n%s\n%s", code, so, se)
	}
	js, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Series []struct {
			Name  string
			Codes map[string]int64
		}
	}
	if err := json.Unmarshal(js, &res); err != nil {
		t.Fatal(err)
	}
	ops := map[string]map[string]int64{}
	for _, s := range res.Series {
		ops[s.Name] = s.Codes
	}
	for _, op := range []string{"READ", "UPDATE"} {
		if c := ops[op]; len(c) != 1 || c["OK"] == 0 {
			t.Errorf("run: %s codes %v, want OK only", op, c)
		}
	}
	outs["JSON result"] = string(js)
	if !strings.Contains(string(js), "kafka.security.protocol") || !strings.Contains(string(js), "kafka.sasl.jaas.config") {
		t.Errorf("the JSON result's configuration lacks the security keys (a redacted value is expected):\n%.2000s", js)
	}
	html := filepath.Join(dir, "run.html")
	code, so, se = gobench(t, ctx, "report", jsonFile, "-o", html)
	if code != 0 {
		t.Fatalf("report: exit %d:\n%s\n%s", code, so, se)
	}
	h, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	outs["HTML report"], outs["report stdout+stderr"] = string(h), so+se
	for name, o := range outs {
		if o == "" && name != "report stdout+stderr" && name != "run stdout" {
			t.Errorf("%s is empty", name)
		}
	}
	assertNoSecrets(t, kafkaSecrets(t, e, file), outs)
}
