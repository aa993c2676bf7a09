package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A server that cannot be reached fails the run the same way on every
// driver: exit 1, its address named once on stderr, and no report of
// meaningless numbers (issue 17, defects 2 and 3). Port 1 on loopback is
// closed, so these need no server.
func TestUnreachableServerFailsTheRun(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		db, key string
		more    []string
	}{
		{"kafka", "kafka.brokers", []string{"-p", "kafka.timeout=2000"}}, // not 30 s of metadata retries
		{"hbase", "hbase.zookeeper.quorum", nil},
		{"hdfs", "hdfs.namenode", nil},
	} {
		t.Run(c.db, func(t *testing.T) {
			code, out, errs := gobench(t, context.Background(), append([]string{"run", "-w", "workloada", "-db", c.db,
				"-p", c.key + "=127.0.0.1:1", "-p", "operationcount=200", "-threads", "4"}, c.more...)...)
			if code != exitFailed {
				t.Fatalf("exit %d, want 1\n%s", code, errs)
			}
			_, after, _ := strings.Cut(errs, "Starting test.")
			if !strings.Contains(after, "127.0.0.1:1") {
				t.Errorf("stderr does not name the address after the start:\n%s", errs)
			}
			if strings.Count(errs, "gobench: ") != 1 || strings.Contains(errs, "Error: worker") {
				t.Errorf("the error is not printed exactly once:\n%s", errs)
			}
			if strings.Contains(out, "Throughput(ops/sec), NaN") || strings.Contains(out, "Time(%), NaN") {
				t.Errorf("report with NaN throughput or GC share:\n%s", out)
			}
			if out != "" && !strings.Contains(errs, "operations failed") {
				t.Errorf("a report was printed but stderr does not count the failures:\n%s", errs)
			}
		})
	}
}

// gobench.maxerrorratio lets a share of failures pass; the count is still
// printed. basic's NOT_FOUND reads stand in for failures.
func TestMaxErrorRatio(t *testing.T) {
	t.Chdir(t.TempDir())
	args := []string{"run", "-db", "memory", "-w", "workloadc", "-p", "operationcount=500"}
	code, out, errs := gobench(t, context.Background(), args...)
	if code != exitFailed || !strings.Contains(errs, "500 of 500 operations failed") || !strings.Contains(errs, "NOT_FOUND") {
		t.Errorf("reads of an empty store: exit %d, want 1 naming the failures\n%s", code, errs)
	}
	if !strings.Contains(out, "[READ], Return=NOT_FOUND, 500") {
		t.Errorf("the report is not printed:\n%s", out)
	}
	code, _, errs = gobench(t, context.Background(), append(args, "-p", "gobench.maxerrorratio=1")...)
	if code != exitOK || !strings.Contains(errs, "Note: 500 of 500 operations failed, within gobench.maxerrorratio=1.0") {
		t.Errorf("with gobench.maxerrorratio=1: exit %d\n%s", code, errs)
	}
}

// No secret given as a property appears in any output: the command line
// echo, the effective configuration, errors and warnings, the result
// document (issue 17, defect 4).
func TestSecretsAreNeverPrinted(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	const secret = "hunter2-very-secret"
	cfg := filepath.Join(dir, "producer.properties")
	os.WriteFile(cfg, []byte("sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required password=\""+secret+"\";\nssl.keystore.password="+secret+"\n"), 0o644)
	runs := [][]string{
		{"run", "-db", "basic", "-p", "sasl.jaas.config=" + secret, "-p", "operationcount=10"},
		{"run", "-db", "basic", "-P", cfg, "-p", "operationcount=10"},
		{"producer-perf", "--topic", "t", "--num-records", "10", "--record-size", "10", "--throughput", "-1",
			"--producer.config", cfg, "--producer-props", "bootstrap.servers=127.0.0.1:1", "ssl.key.password=" + secret,
			"request.timeout.ms=2000"},
		{"consumer-perf", "--topic", "t", "--messages", "10", "--bootstrap-server", "127.0.0.1:1", "--timeout", "500",
			"--consumer.config", cfg, "--command-property", "sasl.jaas.config=" + secret},
	}
	for _, args := range runs {
		_, out, errs := gobench(t, context.Background(), args...)
		if strings.Contains(out+errs, secret) {
			t.Errorf("gobench %s printed the secret:\nstdout:\n%s\nstderr:\n%s", args[0], out, errs)
		}
		if !strings.Contains(errs, "sasl.jaas.config") && !strings.Contains(errs, "ssl.keystore.password") {
			t.Errorf("gobench %s does not name the offending keys:\n%s", args[0], errs)
		}
	}
}

// Every list in the help comes from the table it describes (issue 17,
// defect 5).
func TestHelpListsEveryDriverAndCommand(t *testing.T) {
	_, out, _ := gobench(t, context.Background(), "help")
	for _, want := range []string{"pebble", "memory", "basic", "hbase", "hdfs", "kafka", "localfs"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks driver %s", want)
		}
	}
	for _, c := range commands() {
		if !strings.Contains(out, "gobench "+c.name) {
			t.Errorf("help lacks command %s", c.name)
		}
	}
	_, out, _ = gobench(t, context.Background(), "workloads")
	for _, want := range []string{"workloada", "dfsio_write", "gobench dfsio", "kafka_produce", "gobench producer-perf", "produce", "consume"} {
		if !strings.Contains(out, want) {
			t.Errorf("workloads lacks %q:\n%s", want, out)
		}
	}
}

// The effective configuration names the defaults that decide where the
// data goes (issue 17, defect 6).
func TestEffectiveConfigurationShowsDefaults(t *testing.T) {
	t.Chdir(t.TempDir())
	_, _, errs := gobench(t, context.Background(), "run", "-w", "workloadc", "-p", "operationcount=1", "-p", "recordcount=1")
	for _, want := range []string{"db=pebble   (default)", "pebble.dir=gobench-data   (default)", "workload=site.ycsb.workloads.CoreWorkload   (workloadc:"} {
		if !strings.Contains(errs, want) {
			t.Errorf("effective configuration lacks %q:\n%s", want, errs)
		}
	}
}

// A driver's bad property is reported once, not once as the decoder's
// problem and again inside the driver's "configure X:" error.
func TestDriverPropertyProblemReportedOnce(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct{ key, args []string }{
		{[]string{`property kafka.acks="7"`}, []string{"-db", "kafka", "-p", "kafka.acks=7"}},
		{[]string{`property hbase.rpc.protection="bogus"`}, []string{"-db", "hbase", "-p", "hbase.security.authentication=kerberos",
			"-p", "hbase.rpc.protection=bogus", "-p", "hbase.regionserver.kerberos.principal=hbase/_HOST@X", "-p", "hbase.master.kerberos.principal=hbase/_HOST@X"}},
	} {
		code, _, errs := gobench(t, context.Background(), append([]string{"run"}, c.args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", c.args, code, errs)
		}
		for _, k := range c.key {
			if n := strings.Count(errs, k); n != 1 {
				t.Errorf("%v: %q named %d times, want once:\n%s", c.args, k, n, errs)
			}
		}
	}
}
