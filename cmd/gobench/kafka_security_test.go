package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKafkaSecurityConfigErrorsExit2: bad security values in a client file
// or --producer-props are configuration errors (exit 2) naming the
// property; no output holds the password or the JAAS text.
func TestKafkaSecurityConfigErrorsExit2(t *testing.T) {
	const pw = "Pw-in-the-file-9"
	jaas := `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="` + pw + `";`
	dir := t.TempDir()
	file := filepath.Join(dir, "client.properties")
	if err := os.WriteFile(file, []byte("bootstrap.servers=127.0.0.1:1\nsecurity.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n"+jaas+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool  string
		props []string
		want  []string
	}{
		{"producer-perf", []string{"security.protocol=SASL_TLS"}, []string{"kafka.security.protocol", "SASL_TLS", "allowed: PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL"}},
		{"producer-perf", []string{"sasl.mechanism=SCRAM-SHA-1"}, []string{"kafka.sasl.mechanism", "allowed: PLAIN"}},
		{"consumer-perf", []string{"security.protocol=SASL_SSL", "ssl.truststore.location=" + filepath.Join(dir, "none.jks"), "ssl.truststore.password=" + pw},
			[]string{"kafka.ssl.truststore.location", "none.jks", "no such file"}},
		{"consumer-perf", []string{"sasl.mechanism=GSSAPI"}, []string{"kafka.sasl.jaas.config", "cannot log in with GSSAPI"}},
	}
	for _, c := range cases {
		args := []string{c.tool, "--topic", "t", "--num-records", "1", "--record-size", "1", "--throughput", "-1", "--producer.config", file, "--producer-props"}
		if c.tool == "consumer-perf" {
			args = []string{c.tool, "--topic", "t", "--messages", "1", "--consumer.config", file, "--command-property"}
		}
		code, so, se := gobench(t, context.Background(), append(args, c.props...)...)
		if code != 2 {
			t.Errorf("%s %v: exit %d, want 2:\n%s", c.tool, c.props, code, se)
		}
		for _, w := range c.want {
			if !strings.Contains(se, w) {
				t.Errorf("%s %v: stderr does not say %q:\n%s", c.tool, c.props, w, se)
			}
		}
		if strings.Contains(so+se, pw) || strings.Contains(so+se, "ScramLoginModule required") {
			t.Errorf("%s %v: output holds a secret:\n%s%s", c.tool, c.props, so, se)
		}
	}
}

// TestKafkaSecurityConnectFailureNoSecret: a YCSB load with SASL whose
// broker does not answer fails before the run (exit 1); neither the
// configuration dump nor the error holds the password or the JAAS text.
func TestKafkaSecurityConnectFailureNoSecret(t *testing.T) {
	const pw = "Pw-on-the-command-line-3"
	code, so, se := gobench(t, context.Background(), "load", "-db", "kafka", "-p", "recordcount=1", "-p", "kafka.brokers=127.0.0.1:1",
		"-p", "kafka.security.protocol=SASL_PLAINTEXT", "-p", "kafka.sasl.mechanism=PLAIN",
		"-p", `kafka.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="`+pw+`";`,
		"-p", "kafka.timeout=2000", "-p", "kafka.deliverytimeout=10000")
	if code != 1 {
		t.Errorf("exit %d, want 1:\n%s\n%s", code, so, se)
	}
	if !strings.Contains(se, "127.0.0.1:1") || !strings.Contains(se, "alice") {
		t.Errorf("stderr does not name the broker and the user:\n%s", se)
	}
	if !strings.Contains(se, "kafka.sasl.jaas.config") {
		t.Errorf("the configuration dump does not list kafka.sasl.jaas.config (redacted):\n%s", se)
	}
	if strings.Contains(so+se, pw) || strings.Contains(so+se, "PlainLoginModule required") {
		t.Errorf("output holds a secret:\n%s%s", so, se)
	}
}
