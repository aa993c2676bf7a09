//go:build secure

package smoke

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/testenv/secure"
)

var (
	producedRe = regexp.MustCompile(`(?m)^(\d+) records sent, [0-9.]+ records/sec`)
	// ConsumerPerformance's data line: start, end, MB, MB/sec, records, ...
	consumedRe = regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d [0-9:]+, \d{4}-\d\d-\d\d [0-9:]+, [0-9.]+, [0-9.]+, (\d+),`)
)

// Kafka's own perf tools over SASL_SSL: jason produces 10 000 records with SCRAM-SHA-512
// and 10 000 with GSSAPI and consumes all 20 000 with each; nogrant (a valid SCRAM
// user without ACLs) is refused (topic authorization failed, nothing sent).
func TestSecureKafkaPerf(t *testing.T) {
	e := secureEnv(t, "kafka")
	ctx := ctxFor(t, 10*time.Minute)
	for _, u := range secure.Users {
		for _, m := range secure.KafkaModes {
			fi, err := os.Stat(e.KafkaProps(u, m))
			if err != nil {
				t.Errorf("client properties for %s %s: %v", u, m, err)
			} else if fi.Mode().Perm()&0o077 != 0 {
				t.Errorf("%s: mode %v, want private (it holds a password)", e.KafkaProps(u, m), fi.Mode())
			}
		}
	}
	topic := secure.KafkaPrefix + "-smoke-" + unique()
	var outs []string
	run := func(mode string, args ...string) string {
		t.Helper()
		so, se, err := e.Script(ctx, "kafka-perf.sh", "", append([]string{"--secure", mode}, args...)...)
		outs = append(outs, so, se)
		if err != nil {
			t.Fatalf("kafka-perf.sh --secure %s %s: %v", mode, strings.Join(args, " "), err)
		}
		return so + se
	}
	run("jason-scram", "topics", "--create", "--topic", topic, "--partitions", "2", "--replication-factor", "1")
	for _, mode := range []string{"jason-scram", "jason-gssapi"} {
		out := run(mode, "producer", "--topic", topic, "--num-records", "10000", "--record-size", "100",
			"--throughput", "-1", "--command-property", "acks=all")
		m := producedRe.FindAllStringSubmatch(out, -1)
		if len(m) == 0 || m[len(m)-1][1] != "10000" {
			t.Fatalf("producer %s: want 10000 records sent, got %v:\n%s", mode, m, out)
		}
	}
	for i, mode := range []string{"jason-scram", "jason-gssapi"} {
		out := run(mode, "consumer", "--topic", topic, "--group", topic+"-g"+strconv.Itoa(i),
			"--num-records", "20000", "--timeout", "120000")
		m := consumedRe.FindStringSubmatch(out)
		if m == nil || m[1] != "20000" {
			t.Fatalf("consumer %s: want 20000 records, got %v:\n%s", mode, m, out)
		}
	}
	out := run("nogrant-scram", "producer", "--topic", topic, "--num-records", "10", "--record-size", "100",
		"--throughput", "-1", "--command-property", "max.block.ms=15000")
	if !strings.Contains(out, "Topic authorization failed") && !strings.Contains(out, "TopicAuthorizationException") {
		t.Errorf("nogrant producer: no topic authorization failure:\n%s", out)
	}
	if m := producedRe.FindAllStringSubmatch(out, -1); len(m) != 0 && m[len(m)-1][1] != "0" {
		t.Errorf("nogrant producer sent %s records", m[len(m)-1][1])
	}
	if o, err := e.KafkaAdmin(ctx, "delete "+topic); err != nil {
		t.Errorf("delete %s: %v %s", topic, err, o)
	}
	noSecrets(t, e, outs...)
}
