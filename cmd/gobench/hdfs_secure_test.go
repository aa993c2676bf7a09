//go:build secure

package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/testenv/secure"
)

// These tests need the secured testenv (`testenv/up.sh --secure hdfs`: the KDC
// and the Kerberized HDFS with SASL data transfer protection). They fail, never
// skip, when it is down. Data: a few MB.

// hdfsSecEnv opens the secured testenv, points gokrb5 at its krb5.conf and
// clears the ambient Hadoop and Kerberos settings of the machine.
func hdfsSecEnv(t *testing.T) *secure.Env {
	t.Helper()
	e, err := secure.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Check("hdfs"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KRB5_CONFIG", e.Krb5Conf())
	t.Setenv("HADOOP_CONF_DIR", "")
	t.Setenv("KRB5CCNAME", filepath.Join(t.TempDir(), "no-ticket-cache"))
	return e
}

func hdfsSecUnique() string { return strconv.FormatInt(time.Now().UnixNano()%1e9, 36) }

// hdfsSecClean removes dir as jason with the driver itself.
func hdfsSecClean(t *testing.T, e *secure.Env, dir string) {
	var set props.Set
	for k, v := range map[string]string{"hdfs.conf.dir": e.ConfDir(), "principal": secure.Jason, "keytab": e.Keytab(secure.Jason)} {
		set.Add(props.Value{Key: k, Value: v, Source: "test"})
	}
	drv, _ := drivers.Lookup("hdfs")
	db, err := drv.Configure(props.NewDecoder(&set), drivers.Schema{Table: "t"})
	if err != nil {
		t.Errorf("clean up %s: %v", dir, err)
		return
	}
	defer db.Close()
	if err := db.(drivers.TableAdmin).DropTable(context.Background(), dir); err != nil {
		t.Errorf("clean up %s: %v", dir, err)
	}
}

// noSecret fails if an output holds a password or store secret of the run directory.
func noSecret(t *testing.T, e *secure.Env, outputs []string) {
	t.Helper()
	secrets := e.Secrets()
	if len(secrets) < 3 {
		t.Fatalf("only %d secrets in %s", len(secrets), e.Dir())
	}
	for i, o := range outputs {
		for _, s := range secrets {
			if strings.Contains(o, s) {
				t.Errorf("output %d holds a secret of %s/secrets", i, e.Dir())
			}
		}
	}
}

// gobench dfsio -write then -read (and -read -random) on the Kerberized HDFS:
// with jason's keytab and hdfs.conf.dir, then with kinit's ticket cache and
// HADOOP_CONF_DIR. Without credentials, with an unknown principal and with a
// missing keytab the run is refused before it starts, naming the principal
// and the cause.
func TestSecureHDFSDFSIO(t *testing.T) {
	e := hdfsSecEnv(t)
	t.Chdir(t.TempDir())
	base := "/user/jason/gobench-dfsio-" + hdfsSecUnique()
	defer hdfsSecClean(t, e, base)
	keytab := []string{"-D", "hdfs.conf.dir=" + e.ConfDir(), "-D", "hdfs.kerberos.principal=" + secure.Jason, "-D", "hdfs.kerberos.keytab=" + e.Keytab(secure.Jason)}
	common := []string{"-D", "test.build.data=" + base, "-nrFiles", "2", "-size", "2MB"}
	var outs []string
	dfsio := func(want int, creds []string, args ...string) (string, string) {
		t.Helper()
		all := append(append(append([]string{"dfsio"}, args...), common...), creds...)
		code, stdout, stderr := gobench(t, context.Background(), all...)
		outs = append(outs, stdout, stderr)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s", args, code, want, stderr)
		}
		return stdout, stderr
	}
	checkMB := func(what, stderr string) {
		t.Helper()
		if !strings.Contains(stderr, "Number of files: 2") || !strings.Contains(stderr, "Total MBytes processed: 4") {
			t.Errorf("%s: want 2 files, 4 MB:\n%s", what, stderr)
		}
	}
	_, stderr := dfsio(0, keytab, "-write")
	checkMB("write (keytab)", stderr)
	if !strings.Contains(stderr, "hdfs (fs.defaultFS of "+e.ConfDir()+")") {
		t.Errorf("the log does not name the conf dir's file system:\n%s", stderr)
	}
	_, stderr = dfsio(0, keytab, "-read")
	checkMB("read (keytab)", stderr)
	// The same through colinmarc's client (what the driver uses for
	// integrity or privacy).
	_, stderr = dfsio(0, append(keytab, "-D", "hdfs.client=colinmarc"), "-read")
	checkMB("read (keytab, hdfs.client=colinmarc)", stderr)

	cc, err := e.Kinit(context.Background(), secure.Jason)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("KRB5CCNAME", "FILE:"+cc)
	t.Setenv("HADOOP_CONF_DIR", e.ConfDir())
	_, stderr = dfsio(0, nil, "-read")
	checkMB("read (ticket cache, HADOOP_CONF_DIR)", stderr)
	stdout, stderr := dfsio(0, nil, "-read", "-random")
	if !strings.Contains(stderr, "random read") || value(t, stdout, "READ", "Return=OK") == "" {
		t.Errorf("random read (ticket cache):\n%s\n%s", stderr, stdout)
	}

	// No ticket cache and no keytab: refused before the run (exit 1).
	t.Setenv("KRB5CCNAME", filepath.Join(t.TempDir(), "none"))
	stdout, stderr = dfsio(1, nil, "-read")
	for _, w := range []string{"Kerberos login", "no ticket cache", "run kinit"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("no credentials: want %q in:\n%s", w, stderr)
		}
	}
	if strings.Contains(stdout, "Return=") || strings.Contains(stderr, "Throughput") {
		t.Errorf("no credentials: the run ran:\n%s\n%s", stdout, stderr)
	}
	// A principal the KDC does not know: refused, naming it (exit 1).
	_, stderr = dfsio(1, []string{"-D", "hdfs.kerberos.principal=nobody", "-D", "hdfs.kerberos.keytab=" + e.Keytab(secure.Jason)}, "-read")
	if !strings.Contains(stderr, "nobody@"+secure.Realm) || !strings.Contains(stderr, "KDC_ERR_C_PRINCIPAL_UNKNOWN") {
		t.Errorf("unknown principal:\n%s", stderr)
	}
	// An expired ticket (lifetime and renewable life 3 s): refused, naming
	// the principal (exit 1).
	short := filepath.Join(t.TempDir(), "cc-short")
	if out, err := exec.Command("kinit", "-l", "3s", "-r", "3s", "-c", "FILE:"+short, "-kt", e.Keytab(secure.Jason), secure.Jason).CombinedOutput(); err != nil {
		t.Fatalf("kinit -l 3s: %v\n%s", err, out)
	}
	time.Sleep(4 * time.Second)
	t.Setenv("KRB5CCNAME", "FILE:"+short)
	_, stderr = dfsio(1, nil, "-read")
	if !strings.Contains(stderr, secure.Principal(secure.Jason)) || !strings.Contains(stderr, "expired") {
		t.Errorf("expired ticket:\n%s", stderr)
	}
	// A keytab that is not there: a configuration error (exit 2) naming the principal.
	_, stderr = dfsio(2, []string{"-D", "hdfs.kerberos.principal=jason", "-D", "hdfs.kerberos.keytab=/nonexistent/jason.keytab"}, "-read")
	if !strings.Contains(stderr, "Kerberos login as jason") || !strings.Contains(stderr, "/nonexistent/jason.keytab") {
		t.Errorf("missing keytab:\n%s", stderr)
	}
	noSecret(t, e, outs)
}

// returns maps "OP Return=CODE" to its count in a report.
func returnCounts(report string) map[string]int {
	m := map[string]int{}
	for _, r := range returnLine.FindAllStringSubmatch(report, -1) {
		n, _ := strconv.Atoi(r[3])
		m[r[1]+" "+r[2]] += n
	}
	return m
}

// A YCSB load and run (workload A) on -db hdfs as jason with YCSB's
// principal/keytab properties: OK only. nogrant, a valid principal without
// permission on jason's directory: every operation FORBIDDEN, report
// printed, exit 1.
func TestSecureHDFSYCSB(t *testing.T) {
	e := hdfsSecEnv(t)
	t.Chdir(t.TempDir())
	table := "user/jason/gobench-ycsb-" + hdfsSecUnique()
	defer hdfsSecClean(t, e, "/"+table)
	var outs []string
	ycsb := func(want int, user string, args ...string) map[string]int {
		t.Helper()
		all := append(args, "-db", "hdfs", "-w", "workloada", "-threads", "2", "-p", "hdfs.conf.dir="+e.ConfDir(),
			"-p", "principal="+user, "-p", "keytab="+e.Keytab(user), "-p", "table="+table,
			"-p", "recordcount=60", "-p", "operationcount=60", "-p", "fieldcount=2", "-p", "fieldlength=16")
		code, stdout, stderr := gobench(t, context.Background(), all...)
		outs = append(outs, stdout, stderr)
		if code != want {
			t.Fatalf("%s %v: exit %d, want %d\n%s\n%s", user, args, code, want, stdout, stderr)
		}
		return returnCounts(stdout)
	}
	if got := ycsb(0, secure.Jason, "load"); len(got) != 1 || got["INSERT OK"] != 60 {
		t.Errorf("load as jason: %v, want INSERT OK 60 only", got)
	}
	got := ycsb(0, secure.Jason, "run")
	if got["READ OK"]+got["UPDATE OK"] != 60 || len(got) > 2 {
		t.Errorf("run as jason: %v, want 60 READ/UPDATE OK only", got)
	}
	for _, client := range []string{"gobench", "colinmarc"} {
		got = ycsb(1, secure.NoGrant, "run", "-p", "hdfs.client="+client)
		if got["READ FORBIDDEN"]+got["UPDATE FORBIDDEN"] != 60 || got["READ OK"]+got["UPDATE OK"] != 0 {
			t.Errorf("run as nogrant (hdfs.client=%s): %v, want all 60 FORBIDDEN", client, got)
		}
	}
	noSecret(t, e, outs)
}
