//go:build secure

package smoke

import (
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/testenv/secure"
)

// Field report 004 with Java YCSB on the Kerberized HBase with ACLs: the admin granted
// jason RWXCA on @ycsb_hbase_ns (at start-up); jason creates a table there pre-split
// by YCSB's formula into 45 regions, loads it after kinit -kt, reads it back with
// YCSB's principal/keytab properties: Return=OK only. nogrant (no grant): creating a
// table is FORBIDDEN, every read an AccessDeniedException.
func TestSecureHBaseYCSB(t *testing.T) {
	e := secureEnv(t, "hbase")
	ctx := ctxFor(t, 12*time.Minute)
	table := secure.Namespace + ":smoke_" + unique()
	var outs []string

	out, err := e.HBaseAdmin(ctx, "hbase", "perms @"+secure.Namespace)
	outs = append(outs, out)
	if err != nil || !strings.Contains(out, "jason RWXCA") {
		t.Fatalf("perms @%s: %v; %q (want jason RWXCA, granted at start-up)", secure.Namespace, err, out)
	}
	out, err = e.HBaseAdmin(ctx, secure.Jason, "whoami", "create "+table+" family 44 --drop")
	outs = append(outs, out)
	if err != nil {
		t.Fatalf("jason creates %s: %v", table, err)
	}
	if !strings.Contains(out, "with 45 regions") || !strings.HasPrefix(out, "jason\n") {
		t.Fatalf("jason creates %s: %q (want user jason, 45 regions)", table, out)
	}
	t.Cleanup(func() {
		if out, err := e.HBaseAdmin(ctxFor(t, 3*time.Minute), secure.Jason, "drop "+table); err != nil {
			t.Errorf("drop %s: %v %s", table, err, out)
		}
	})

	props := []string{"-p", "table=" + table, "-p", "recordcount=1000", "-p", "fieldcount=4", "-p", "fieldlength=50"}
	so, se, err := e.Script(ctx, "ycsb.sh", "", append(append([]string{"--secure", secure.Jason, "load"}, props...), "-threads", "4")...)
	outs = append(outs, so, se)
	if err != nil {
		t.Fatalf("YCSB load as jason (kinit): %v", err)
	}
	wantLines(t, "load as jason", so, "[INSERT], Return=OK, 1000")
	run := append(append([]string{}, props...), "-p", "operationcount=1000", "-p", "readproportion=1",
		"-p", "updateproportion=0", "-p", "requestdistribution=uniform", "-threads", "4")
	so, se, err = e.Script(ctx, "ycsb.sh", "", append([]string{"--secure-keytab", secure.Jason, "run"}, run...)...)
	outs = append(outs, so, se)
	if err != nil {
		t.Fatalf("YCSB run as jason (keytab): %v", err)
	}
	wantLines(t, "run as jason", so, "[READ], Return=OK, 1000")
	if strings.Contains(so, "Return=ERROR") || strings.Contains(so, "Return=NOT_FOUND") {
		t.Errorf("run as jason: not only OK:\n%s", grepReturn(so))
	}

	out, err = e.HBaseAdmin(ctx, secure.NoGrant, "create "+secure.Namespace+":nogrant_"+unique()+" family 2")
	outs = append(outs, out)
	if secure.ExitCode(err) != 3 || !strings.Contains(err.Error(), "FORBIDDEN") || !strings.Contains(err.Error(), "AccessDeniedException") {
		t.Errorf("nogrant creates a table: %v (want exit 3, FORBIDDEN: AccessDeniedException)", err)
	}
	nrun := append(append([]string{}, props...), "-p", "operationcount=30", "-p", "readproportion=1",
		"-p", "updateproportion=0", "-p", "debug=true", "-threads", "1")
	so, se, err = e.Script(ctx, "ycsb.sh", "", append([]string{"--secure", secure.NoGrant, "run"}, nrun...)...)
	outs = append(outs, so, se)
	if err != nil {
		t.Fatalf("YCSB run as nogrant: %v", err)
	}
	wantLines(t, "run as nogrant", so, "[READ], Return=ERROR, 30")
	if n := strings.Count(se, "AccessDeniedException: Insufficient permissions for user 'nogrant'"); n < 30 {
		t.Errorf("run as nogrant: %d AccessDeniedExceptions, want 30", n)
	}
	noSecrets(t, e, outs...)
}

func wantLines(t *testing.T, what, out string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(out, l+"\n") {
			t.Errorf("%s: no line %q in:\n%s", what, l, grepReturn(out))
		}
	}
}

// grepReturn: the YCSB lines worth showing in a failure (OVERALL and Return=).
func grepReturn(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Return=") || strings.HasPrefix(l, "[OVERALL]") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
