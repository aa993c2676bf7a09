package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
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
