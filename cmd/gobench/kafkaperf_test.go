package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/gobench/gobench/drivers/kafka"
	"github.com/gobench/gobench/workload/kafkaperf"
)

func TestParseKafkaArgs(t *testing.T) {
	got, err := parseKafkaArgs([]string{"--topic", "t", "--num-records=5", "--producer-props", "acks=1", "linger.ms=0", "--print-metrics", "--throughput", "-1"}, producerOpts)
	if err != nil {
		t.Fatal(err)
	}
	want := "map[--num-records:[5] --print-metrics:[true] --producer-props:[acks=1 linger.ms=0] --throughput:[-1] --topic:[t]]"
	if fmt.Sprint(got) != want {
		t.Errorf("parsed %v\nwant %s", got, want)
	}
	for _, bad := range [][]string{{"--topic"}, {"--nope", "1"}, {"topic"}, {"--print-metrics=yes"}} {
		if _, err := parseKafkaArgs(bad, producerOpts); err == nil {
			t.Errorf("parseKafkaArgs(%q) accepted", bad)
		}
	}
}

func TestKafkaPerfUsageErrorsExit2(t *testing.T) {
	cases := [][]string{
		{"producer-perf", "--topic", "t", "--num-records", "10"},                                             // no --throughput
		{"producer-perf", "--topic", "t", "--num-records", "10", "--throughput", "-1"},                       // no size
		{"producer-perf", "--topic", "t", "--num-records", "-3", "--throughput", "-1", "--record-size", "1"}, // Kafka 4: > 0
		{"producer-perf", "--topic", "t", "--num-records", "3", "--throughput", "-1", "--record-size", "1", "--producer-props", "acks"},
		{"producer-perf", "--topic", "t", "--num-records", "3", "--throughput", "-1", "--record-size", "1", "--producer-props", "acks=7"},
		{"consumer-perf", "--topic", "t"},
		{"consumer-perf", "--topic", "t", "--messages", "5", "--reporting-interval", "0"},
		{"consumer-perf", "--topic", "t", "--messages", "5", "--date-format", "HH:mm"},
		{"consumer-perf", "--topic", "t", "--messages", "5", "--fetch-size", "lots"},
	}
	for _, args := range cases {
		var stderr strings.Builder
		if code := run(context.Background(), args, io.Discard, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d (stderr %q)", args, code, exitUsage, stderr.String())
		}
	}
	var stderr strings.Builder
	run(context.Background(), []string{"producer-perf", "--topic", "t", "--num-records", "3", "--throughput", "-1", "--record-size", "1", "--producer-props", "acks=7"}, io.Discard, &stderr)
	if !strings.Contains(stderr.String(), "kafka.acks") || !strings.Contains(stderr.String(), "--producer-props") {
		t.Errorf("bad acks: stderr %q does not name kafka.acks and its origin", stderr.String())
	}
}

func TestKafkaPerfHelpExits0(t *testing.T) {
	for _, tool := range []string{"producer-perf", "consumer-perf"} {
		var out strings.Builder
		if code := run(context.Background(), []string{tool}, &out, io.Discard); code != exitOK || !strings.Contains(out.String(), "--topic") {
			t.Errorf("%s without arguments: exit %d, output %q", tool, code, out.String())
		}
	}
}

// TestJavaKeysDocumentedAndKnown: every Java property kafkaperf maps is a
// key the kafka driver or the Kafka kinds know, and is listed with that key
// in drivers/kafka's package doc table.
func TestJavaKeysDocumentedAndKnown(t *testing.T) {
	known := map[string]bool{}
	for _, k := range (kafka.Driver{}).Keys() {
		known[k.Name] = true
	}
	for _, k := range append(kafkaperf.ProduceKeys(), kafkaperf.ConsumeKeys()...) {
		known[k.Name] = true
	}
	doc, err := os.ReadFile("../../drivers/kafka/doc.go")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, l := range strings.Split(string(doc), "\n") {
		f := strings.Fields(strings.TrimPrefix(l, "//"))
		if strings.HasPrefix(l, "//\t") && len(f) >= 3 && (strings.HasPrefix(f[len(f)-1], "kafka.") || strings.HasPrefix(f[len(f)-1], "produce.")) {
			rows[f[0]] = f[len(f)-1]
		}
	}
	for java, key := range kafkaperf.JavaKeys() {
		if !known[key] {
			t.Errorf("%s maps to %s, which no driver or kind declares", java, key)
		}
		if rows[java] != key {
			t.Errorf("drivers/kafka/doc.go's table has %s -> %q, want %q", java, rows[java], key)
		}
		if got, ok := kafkaperf.JavaKey(java); !ok || got != key {
			t.Errorf("JavaKey(%s) = %q, %v", java, got, ok)
		}
	}
	if _, ok := kafkaperf.JavaKey("sasl.login.callback.handler.class"); ok {
		t.Error("sasl.login.callback.handler.class is mapped; it must be named in the warning")
	}
}

// TestIgnoredJavaPropertiesOneWarningNoValues: properties gobench cannot
// honour are named in one warning, never with their values.
func TestIgnoredJavaPropertiesOneWarningNoValues(t *testing.T) {
	var stderr strings.Builder
	run(context.Background(), []string{"producer-perf", "--topic", "t", "--num-records", "1", "--throughput", "-1", "--record-size", "1",
		"--bootstrap-server", "127.0.0.1:1", "--producer-props", "sasl.oauthbearer.client.credentials.client.secret=SECRETVALUE", "partitioner.class=x.Y",
		"key.serializer=org.apache.kafka.common.serialization.ByteArraySerializer", "enable.idempotence=true", "acks=all",
		"delivery.timeout.ms=31000", "request.timeout.ms=2000"}, io.Discard, &stderr)
	out := stderr.String()
	if n := strings.Count(out, "have no equivalent"); n != 1 {
		t.Fatalf("%d warnings about ignored properties, want 1:\n%s", n, out)
	}
	for _, want := range []string{"sasl.oauthbearer.client.credentials.client.secret", "partitioner.class"} {
		if !strings.Contains(out, want) {
			t.Errorf("warning does not name %s:\n%s", want, out)
		}
	}
	for _, bad := range []string{"SECRETVALUE", "x.Y", "key.serializer", "enable.idempotence", "delivery.timeout.ms"} {
		if strings.Contains(out, bad) {
			t.Errorf("stderr contains %q:\n%s", bad, out)
		}
	}
}
