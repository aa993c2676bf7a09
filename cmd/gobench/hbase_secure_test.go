//go:build secure

package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/testenv/secure"
)

// These tests need the secured HBase of testenv (testenv/up.sh --secure hbase):
// they fail, never skip, when it is not there. They replay field report 004:
// kinit -kt as jason (RWXCA on @ycsb_hbase_ns), YCSB's -cp conf dir, table
// ycsb_hbase_ns:usertable pre-split by YCSB's formula.

func secureHBase(t *testing.T) (*secure.Env, context.Context) {
	t.Helper()
	e, err := secure.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Check("hbase"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	t.Cleanup(cancel)
	t.Setenv("KRB5_CONFIG", e.Krb5Conf())
	t.Chdir(t.TempDir())
	return e, ctx
}

// kinitAs gets user a ticket with kinit -kt and points KRB5CCNAME at it.
func kinitAs(t *testing.T, e *secure.Env, ctx context.Context, user string) {
	t.Helper()
	cc, err := e.Kinit(ctx, user)
	if err != nil {
		t.Fatalf("kinit %s: %v", user, err)
	}
	t.Setenv("KRB5CCNAME", cc)
}

// returns maps "OP Return=STATUS" to the count of every Return line.
func returns(out string) map[string]string {
	m := map[string]string{}
	for _, l := range returnLine.FindAllStringSubmatch(out, -1) {
		m[l[1]+" "+l[2]] = l[3]
	}
	return m
}

// onlyReturns checks that the report's Return lines are exactly want.
func onlyReturns(t *testing.T, label, out string, want map[string]string) {
	t.Helper()
	if got := returns(out); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: Return lines %v, want %v\n%s", label, got, want, out)
	}
}

// okOnly checks that every Return line is OK (and there is one for each op).
func okOnly(t *testing.T, label, out string, ops ...string) {
	t.Helper()
	got := returns(out)
	for k := range got {
		if !strings.HasSuffix(k, " OK") {
			t.Errorf("%s: %s in the report:\n%s", label, k, out)
		}
	}
	for _, op := range ops {
		if got[op+" OK"] == "" {
			t.Errorf("%s: no [%s], Return=OK line:\n%s", label, op, out)
		}
	}
}

// gobenchAdmin is gobench's HBase driver as jason (keytab) for table
// creation and clean-up (no JVM).
func gobenchAdmin(t *testing.T, e *secure.Env) drivers.TableAdmin {
	t.Helper()
	var s props.Set
	for k, v := range map[string]string{"hbase.conf.dir": e.ConfDir(), "principal": secure.Jason, "keytab": e.Keytab(secure.Jason)} {
		s.Add(props.Value{Key: k, Value: v, Source: "test"})
	}
	db, err := hbase.Driver{}.Configure(props.NewDecoder(&s), drivers.Schema{Table: "usertable"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db.(drivers.TableAdmin)
}

func noSecretIn(t *testing.T, e *secure.Env, outs ...string) {
	t.Helper()
	for _, s := range e.Secrets() {
		for _, o := range outs {
			if s != "" && strings.Contains(o, s) {
				t.Errorf("an output holds a secret of the run directory")
			}
		}
	}
}

func TestSecureHBaseFieldReport004(t *testing.T) {
	e, ctx := secureHBase(t)
	kinitAs(t, e, ctx, secure.Jason)
	table := secure.Namespace + ":usertable"
	last := time.Now()
	lap := func(what string) { t.Logf("%s: %.1fs", what, time.Since(last).Seconds()); last = time.Now() }
	common := []string{"-cp", e.ConfDir(), "-p", "table=" + table, "-p", "columnfamily=family",
		"-p", "recordcount=1000", "-p", "dataintegrity=true", "-threads", "8"}
	var outs []string
	gb := func(label string, want int, args ...string) string {
		t.Helper()
		code, out, errs := gobench(t, ctx, append(args, common...)...)
		outs = append(outs, out, errs)
		if code != want {
			t.Fatalf("%s: exit %d, want %d\n%s\n%s", label, code, want, out, errs)
		}
		return out
	}

	// jason: create the table pre-split (44 split points, 45 regions), load, A and C.
	out := gb("load as jason", exitOK, "load", "hbase12", "-P", "workloads/workloada",
		"-p", "hbase.createtable=true", "-p", "hbase.droptable=true", "-p", "hbase.splits=44")
	onlyReturns(t, "load as jason", out, map[string]string{"INSERT OK": "1000"})
	admin := gobenchAdmin(t, e)
	t.Cleanup(func() { admin.DropTable(context.Background(), table) })
	regions, err := e.HBaseAdmin(ctx, secure.Jason, "regions "+table)
	outs = append(outs, regions)
	if err != nil || strings.TrimSpace(regions) != "45" {
		t.Errorf("HBase's own client counts the regions of %s: %q, %v; want 45", table, regions, err)
	}
	lap("gobench creates the table (45 regions) and loads")
	for _, w := range []string{"workloada", "workloadc"} {
		out = gb(w+" as jason", exitOK, "run", "hbase12", "-P", "workloads/"+w, "-p", "operationcount=2000")
		ops := []string{"READ", "VERIFY"}
		if w == "workloada" {
			ops = append(ops, "UPDATE")
		}
		okOnly(t, w+" as jason", out, ops...)
	}

	lap("gobench runs A and C")
	// Java YCSB reads what gobench wrote (its data integrity check too).
	so, se, err := e.Script(ctx, "ycsb.sh", "", "--secure", secure.Jason, "run", "-p", "table="+table,
		"-p", "recordcount=1000", "-p", "operationcount=1000", "-p", "readproportion=1", "-p", "updateproportion=0",
		"-p", "dataintegrity=true", "-p", "requestdistribution=uniform", "-threads", "4")
	outs = append(outs, so, se)
	if err != nil {
		t.Fatalf("Java YCSB reads gobench's table: %v", err)
	}
	okOnly(t, "Java YCSB reads gobench's records", so, "READ", "VERIFY")
	if r := returns(so); r["READ OK"] != "1000" {
		t.Errorf("Java YCSB: [READ], Return=OK, %s; want 1000\n%s", r["READ OK"], so)
	}

	lap("Java YCSB reads")
	// gobench reads what Java YCSB wrote.
	jtable := secure.Namespace + ":ycsb_written"
	admin.DropTable(ctx, jtable)
	if err := admin.CreateTable(ctx, jtable, hbase.SplitKeys(4), false); err != nil {
		t.Fatalf("create %s: %v", jtable, err)
	}
	t.Cleanup(func() { admin.DropTable(context.Background(), jtable) })
	so, se, err = e.Script(ctx, "ycsb.sh", "", "--secure", secure.Jason, "load", "-p", "table="+jtable,
		"-p", "recordcount=1000", "-p", "dataintegrity=true", "-threads", "4")
	outs = append(outs, so, se)
	if err != nil || returns(so)["INSERT OK"] != "1000" {
		t.Fatalf("Java YCSB load: %v\n%s", err, so)
	}
	lap("gobench creates a table, Java YCSB loads it")
	code, out, errs := gobench(t, ctx, "run", "hbase12", "-P", "workloads/workloadc", "-cp", e.ConfDir(),
		"-p", "table="+jtable, "-p", "recordcount=1000", "-p", "operationcount=1000", "-p", "requestdistribution=uniform",
		"-p", "dataintegrity=true", "-threads", "4")
	outs = append(outs, out, errs)
	if code != exitOK {
		t.Fatalf("gobench reads Java YCSB's table: exit %d\n%s\n%s", code, out, errs)
	}
	onlyReturns(t, "gobench reads Java YCSB's records", out, map[string]string{"READ OK": "1000", "VERIFY OK": "1000"})

	lap("gobench reads Java YCSB's records")
	// The same with YCSB's principal/keytab properties (no ticket cache), and
	// with every hbase.rpc.protection.
	t.Setenv("KRB5CCNAME", "/nonexistent/gobench-cc")
	for _, qop := range []string{"authentication", "integrity", "privacy"} {
		out = gb("workloadc, keytab, "+qop, exitOK, "run", "hbase12", "-P", "workloads/workloadc",
			"-p", "operationcount=500", "-p", "principal="+secure.Jason, "-p", "keytab="+e.Keytab(secure.Jason),
			"-p", "hbase.rpc.protection="+qop)
		onlyReturns(t, "workloadc, keytab, "+qop, out, map[string]string{"READ OK": "500", "VERIFY OK": "500"})
	}
	lap("gobench with a keytab, three protections")
	noSecretIn(t, e, outs...)
}

// A user without the grant: every operation FORBIDDEN, the report printed,
// exit 1. Without a ticket: refused before the run, naming the principal.
func TestSecureHBaseRefusals(t *testing.T) {
	e, ctx := secureHBase(t)
	kinitAs(t, e, ctx, secure.Jason)
	table := secure.Namespace + ":refusals"
	base := []string{"-cp", e.ConfDir(), "-p", "table=" + table, "-p", "recordcount=100", "-threads", "2"}
	var outs []string
	code, out, errs := gobench(t, ctx, append([]string{"load", "hbase2", "-P", "workloads/workloada",
		"-p", "hbase.createtable=true", "-p", "hbase.droptable=true", "-p", "hbase.splits=4"}, base...)...)
	outs = append(outs, out, errs)
	if code != exitOK {
		t.Fatalf("load as jason: exit %d\n%s", code, errs)
	}
	admin := gobenchAdmin(t, e)
	t.Cleanup(func() { admin.DropTable(context.Background(), table) })

	kinitAs(t, e, ctx, secure.NoGrant)
	code, out, errs = gobench(t, ctx, append([]string{"run", "hbase2", "-P", "workloads/workloada", "-p", "operationcount=60"}, base...)...)
	outs = append(outs, out, errs)
	r := returns(out)
	if code != exitFailed || r["READ FORBIDDEN"] == "" || r["UPDATE FORBIDDEN"] == "" || len(r) != 2 {
		t.Errorf("workloada as nogrant: exit %d, Return lines %v; want exit 1, READ and UPDATE FORBIDDEN only\n%s\n%s", code, r, out, errs)
	}
	if n := atoiSum(r["READ FORBIDDEN"], r["UPDATE FORBIDDEN"]); n != 60 {
		t.Errorf("workloada as nogrant: %d FORBIDDEN, want 60", n)
	}
	if !strings.Contains(errs, "AccessDeniedException") || !strings.Contains(errs, "nogrant") {
		t.Errorf("workloada as nogrant: stderr does not show the AccessDeniedException:\n%s", errs)
	}
	code, out, errs = gobench(t, ctx, append([]string{"load", "hbase2", "-P", "workloads/workloada", "-p", "hbase.checktable=false"}, base...)...)
	outs = append(outs, out, errs)
	if code != exitFailed {
		t.Errorf("load as nogrant: exit %d, want 1\n%s", code, errs)
	}
	// As in YCSB, a load thread stops at its first failed insert: one each.
	onlyReturns(t, "load as nogrant", out, map[string]string{"INSERT FORBIDDEN": "2"})

	// The server refuses a ticket for another service's principal.
	kinitAs(t, e, ctx, secure.Jason)
	code, out, errs = gobench(t, ctx, append([]string{"run", "hbase2", "-P", "workloads/workloadc",
		"-p", "hbase.regionserver.kerberos.principal=zookeeper/_HOST@" + secure.Realm}, base...)...)
	outs = append(outs, out, errs)
	if code != exitFailed || !strings.Contains(errs, "Kerberos authentication of jason@GOBENCH.TEST to zookeeper/localhost@GOBENCH.TEST failed: the server refused") ||
		strings.Contains(out, "[OVERALL]") {
		t.Errorf("wrong server principal: exit %d, want 1 before the run\nstdout %s\nstderr %s", code, out, errs)
	}

	// No ticket: refused before the run, naming the principal and the cause.
	t.Setenv("KRB5CCNAME", "/nonexistent/gobench-cc")
	code, out, errs = gobench(t, ctx, append([]string{"run", "hbase2", "-P", "workloads/workloadc", "-p", "principal=jason"}, base...)...)
	outs = append(outs, out, errs)
	if code != exitFailed || !strings.Contains(errs, "jason@GOBENCH.TEST") || !strings.Contains(errs, "no Kerberos ticket") ||
		!strings.Contains(errs, "kinit") || strings.Contains(out, "[OVERALL]") {
		t.Errorf("no ticket: exit %d, want 1 before the run naming jason@GOBENCH.TEST\nstdout %s\nstderr %s", code, out, errs)
	}
	// An expired ticket (kinit -l 2s): refused the same way.
	cc := filepath.Join(t.TempDir(), "cc")
	if out, err := exec.CommandContext(ctx, "kinit", "-l", "2s", "-kt", e.Keytab(secure.Jason), "-c", "FILE:"+cc, secure.Jason).CombinedOutput(); err != nil {
		t.Fatalf("kinit -l 2s: %v %s", err, out)
	}
	time.Sleep(3 * time.Second)
	t.Setenv("KRB5CCNAME", cc)
	code, out, errs = gobench(t, ctx, append([]string{"run", "hbase2", "-P", "workloads/workloadc"}, base...)...)
	outs = append(outs, out, errs)
	if code != exitFailed || !strings.Contains(errs, "jason@GOBENCH.TEST") || !strings.Contains(errs, "expired") || strings.Contains(out, "[OVERALL]") {
		t.Errorf("expired ticket: exit %d, want 1 before the run naming jason@GOBENCH.TEST\nstdout %s\nstderr %s", code, out, errs)
	}
	// A missing keytab is a configuration error (exit 2) naming the principal.
	code, _, errs = gobench(t, ctx, append([]string{"run", "hbase2", "-P", "workloads/workloadc", "-p", "principal=jason",
		"-p", "keytab=/nonexistent/jason.keytab"}, base...)...)
	outs = append(outs, errs)
	if code != exitUsage || !strings.Contains(errs, "keytab of jason") || !strings.Contains(errs, "/nonexistent/jason.keytab") {
		t.Errorf("missing keytab: exit %d, want 2 naming the principal\n%s", code, errs)
	}
	// A principal the keytab (and the KDC) do not know.
	code, _, errs = gobench(t, ctx, append([]string{"run", "hbase2", "-P", "workloads/workloadc", "-p", "principal=nobody",
		"-p", "keytab=" + e.Keytab(secure.Jason)}, base...)...)
	outs = append(outs, errs)
	if code != exitFailed || !strings.Contains(errs, "nobody@GOBENCH.TEST") {
		t.Errorf("unknown principal: exit %d, want 1 naming nobody@GOBENCH.TEST\n%s", code, errs)
	}
	noSecretIn(t, e, outs...)
}

func atoiSum(vals ...string) int {
	n := 0
	for _, v := range vals {
		var x int
		fmt.Sscan(v, &x)
		n += x
	}
	return n
}
