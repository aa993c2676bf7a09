package driverstest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
)

// sqlDB is a fake SQL driver: it answers "Q" with two rows and refuses
// "BAD"; queryBug plants one bug.
type sqlDB struct{ bug string }

func (d sqlDB) Open(context.Context) (drivers.Conn, error) { return &sqlConn{bug: d.bug}, nil }
func (d sqlDB) Close() error                               { return nil }
func (d sqlDB) Caps() drivers.Caps {
	if d.bug == "caps-undeclared" {
		return 0
	}
	return drivers.CapQuery
}

type sqlConn struct{ bug string }

func (c *sqlConn) Query(_ context.Context, stmt string, fn func(cols, row []string) error) error {
	switch stmt {
	case "BAD":
		if c.bug == "bad-is-ok" {
			return nil
		}
		return &drivers.StatusError{Status: drivers.BadRequest, Err: errors.New("syntax")}
	case "Q":
		rows := [][]string{{"1", "a"}, {"2", "b"}}
		if c.bug == "drops-row" {
			rows = rows[:1]
		}
		for _, r := range rows {
			if err := fn([]string{"n", "s"}, r); err != nil && c.bug != "query-ignores-stop" {
				return err
			}
		}
		return nil
	}
	return errors.New("unknown statement")
}

func (c *sqlConn) Read(context.Context, string, []byte, drivers.FieldSet, *drivers.Record) error {
	if c.bug == "records-ok" {
		return nil
	}
	return errors.ErrUnsupported
}
func (c *sqlConn) Scan(context.Context, string, []byte, int, drivers.FieldSet, func([]byte, *drivers.Record) error) error {
	return errors.ErrUnsupported
}
func (c *sqlConn) Update(context.Context, string, []byte, *drivers.Record) error {
	return errors.ErrUnsupported
}
func (c *sqlConn) Insert(context.Context, string, []byte, *drivers.Record) error {
	return errors.ErrUnsupported
}
func (c *sqlConn) Delete(context.Context, string, []byte) error { return errors.ErrUnsupported }
func (c *sqlConn) Close(context.Context) error                  { return nil }

const queryBugEnv = "GOBENCH_DRIVERSTEST_QUERYBUG"

var queryBugs = map[string]string{
	"bad-is-ok":          "Query",
	"drops-row":          "Query",
	"query-ignores-stop": "Query",
	"records-ok":         "RecordsUnsupported",
	"caps-undeclared":    "Capabilities",
}

func runSQL(t *testing.T, bug string) {
	driverstest.Run(t, func(*testing.T) drivers.DB { return sqlDB{bug: bug} },
		driverstest.QueryOnly("Q", [][]string{{"1", "a"}, {"2", "b"}}, "BAD"), driverstest.Workers(3))
}

func TestQueryOnlyPasses(t *testing.T) { runSQL(t, "") }

// TestQueryOnlyCatchesBugs runs the QueryOnly suite against the fake with
// one bug planted at a time, in a child process.
func TestQueryOnlyCatchesBugs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary once per bug")
	}
	for bug, sub := range queryBugs {
		t.Run(bug, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenSQLDriver$", "-test.v")
			cmd.Env = append(os.Environ(), queryBugEnv+"="+bug)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("suite passed a driver with bug %s:\n%s", bug, out)
			}
			if !strings.Contains(string(out), "--- FAIL: TestBrokenSQLDriver/"+sub) {
				t.Errorf("bug %s: sub-test %s did not fail:\n%s", bug, sub, out)
			}
		})
	}
}

func TestBrokenSQLDriver(t *testing.T) {
	bug := os.Getenv(queryBugEnv)
	if bug == "" {
		t.Skip("only run by TestQueryOnlyCatchesBugs")
	}
	runSQL(t, bug)
}
