//go:build hive

package hive

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/props"
)

// These tests need the real HiveServer2 on 127.0.0.1:10000 (start it with
// `testenv/up.sh hive`); GOBENCH_HIVE_SERVER overrides the address. They
// fail, never skip, when it is not there.

func serverAddr() string {
	if a := os.Getenv("GOBENCH_HIVE_SERVER"); a != "" {
		return a
	}
	return DefaultServer
}

func openDB(t testing.TB) *DB {
	t.Helper()
	var s props.Set
	s.Add(props.Value{Key: KeyServer, Value: serverAddr(), Source: "test"})
	db, err := Driver{}.Configure(props.NewDecoder(&s), driverstest.Schema())
	if err != nil {
		t.Fatalf("Configure: %v", err)
	}
	c, err := db.Open(context.Background())
	if err != nil {
		t.Fatalf("HiveServer2 is not usable at %s (start it with testenv/up.sh hive): %v", serverAddr(), err)
	}
	c.Close(context.Background())
	return db.(*DB)
}

// The conformance suite with the statements every HiveServer2 answers
// without running a job: one row of each rendered type, and bad SQL.
func TestIntegrationHiveConformance(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.DB { return openDB(t) },
		driverstest.QueryOnly("SELECT 1, 'a b', CAST(NULL AS INT), 1.5d, CAST(0.1 AS FLOAT), true, CAST(12.50 AS DECIMAL(5,2)), 1e7d",
			[][]string{{"1", "a b", "NULL", "1.5", "0.1", "true", "12.50", "1.0E7"}}, "SELEC 1"),
		driverstest.Workers(4))
}

// A cancelled statement returns at once with the context's error, and the
// session refuses further statements.
func TestIntegrationHiveCancel(t *testing.T) {
	db := openDB(t)
	c, err := db.Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	err = c.(*Conn).Query(ctx, `SELECT reflect("java.lang.Thread", "sleep", CAST(20000 AS BIGINT))`, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled query: err %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(t0); d > 3*time.Second {
		t.Errorf("cancelled query returned after %v, want about 0.5 s", d)
	}
	if err := c.(*Conn).Query(t.Context(), "SELECT 1", nil); !errors.Is(err, errBroken) {
		t.Errorf("query after a cancellation: %v, want the broken-session error", err)
	}
}

// Statement errors carry Hive's message and class; nothing is left open.
func TestIntegrationHiveStatementErrors(t *testing.T) {
	db := openDB(t)
	c, err := db.Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	q := c.(*Conn)
	err = q.Query(t.Context(), "SELECT * FROM gobench_no_such_table", nil)
	var se *StatementError
	if !errors.As(err, &se) || !se.BadSQL() || !strings.Contains(err.Error(), "Table not found 'gobench_no_such_table'") {
		t.Fatalf("missing table: %v (%#v), want a BadSQL StatementError naming the table", err, se)
	}
	if s := drivers.Classify(err); s != drivers.BadRequest {
		t.Errorf("missing table: status %v, want BAD_REQUEST", s)
	}
	if err := q.Query(t.Context(), "SELECT 2", nil); err != nil {
		t.Errorf("the session after a statement error: %v", err)
	}
}

// A wrong authentication mode fails within the connect timeout with a hint.
func TestIntegrationHiveWrongAuth(t *testing.T) {
	openDB(t)
	c := DefaultConfig()
	c.Server, c.Auth, c.ConnectTimeout = serverAddr(), AuthNoSASL, 3*time.Second
	t0 := time.Now()
	_, err := NewDB(c).Open(t.Context())
	if err == nil {
		t.Fatal("nosasl against a SASL server: opened")
	}
	if d := time.Since(t0); d > 6*time.Second {
		t.Errorf("took %v, want about hive.connecttimeout (3 s)", d)
	}
	if !strings.Contains(err.Error(), "hive.auth") {
		t.Errorf("error %q does not hint at hive.auth", err)
	}
}
