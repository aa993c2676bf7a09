package hive

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/props"
)

func TestParseSQL(t *testing.T) {
	qs, err := ParseSQL(`-- my suite
-- name: big_count
SELECT COUNT(*) FROM t WHERE s = 'a;b' -- trailing; comment
;
/* block; comment */ SELECT "x;y", ` + "`c;d`" + ` FROM u;
-- only a comment;
;;
SELECT 'it\'s; fine'`)
	if err != nil {
		t.Fatal(err)
	}
	var names, sqls []string
	for _, q := range qs {
		names, sqls = append(names, q.Name), append(sqls, q.SQL)
	}
	if got := strings.Join(names, ","); got != "BIG_COUNT,Q2,Q3" {
		t.Errorf("names %s", got)
	}
	if !strings.Contains(sqls[0], "'a;b'") || !strings.HasPrefix(sqls[0], "SELECT COUNT(*)") || strings.Contains(sqls[0], "name:") {
		t.Errorf("first statement %q", sqls[0])
	}
	if !strings.HasPrefix(sqls[1], "SELECT") || !strings.Contains(sqls[1], `"x;y"`) || !strings.Contains(sqls[1], "`c;d`") {
		t.Errorf("second statement %q", sqls[1])
	}
	if sqls[2] != `SELECT 'it\'s; fine'` {
		t.Errorf("third statement %q", sqls[2])
	}
	for in, want := range map[string]string{
		"SELECT 'x":           "unterminated",
		"/* x":                "unterminated",
		"-- only a comment\n": "no statement",
		"-- name: a\nSELECT 1;\n-- name: a\nSELECT 2": "two statements are named A",
	} {
		if _, err := ParseSQL(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSQL(%q): %v, want %q", in, err, want)
		}
	}
}

func decode(t *testing.T, kv ...string) (Config, error) {
	t.Helper()
	var s props.Set
	for i := 0; i < len(kv); i += 2 {
		s.Add(props.Value{Key: kv[i], Value: kv[i+1], Source: "-p"})
	}
	d := props.NewDecoder(&s)
	c, err := Decode(d)
	return c, errors.Join(append(d.Errs(), err)...)
}

func TestDecode(t *testing.T) {
	c, err := decode(t, KeyDataDir, "/data/h", KeyQueries, "q1, join3,aggregate", KeyRepeat, "3", KeyScale, "1000")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, q := range c.Queries {
		names = append(names, q.Name)
	}
	if strings.Join(names, ",") != "SCAN,JOIN3,AGGREGATE" || c.Repeat != 3 || c.Dataset.Rows != [numTables]int64{1000, 1000, 1000} {
		t.Errorf("config %+v", c)
	}
	c, err = decode(t, KeyLoad, "never")
	if err != nil || len(c.Queries) != 5 || c.Queries[4].SQL != c.Queries[2].SQL {
		t.Errorf("defaults: %d queries, err %v", len(c.Queries), err)
	}
	f := filepath.Join(t.TempDir(), "mine.sql")
	os.WriteFile(f, []byte("SELECT 1; SELECT 2"), 0o644)
	c, err = decode(t, KeyLoad, "never", KeySQLFile, f)
	if err != nil || len(c.Queries) != 2 || c.Queries[0].Name != "Q1" {
		t.Errorf("a .sql file alone: %+v, %v", c.Queries, err)
	}
	c, err = decode(t, KeyLoad, "never", KeySQLFile, f, KeyQueries, "scan")
	if err != nil || len(c.Queries) != 3 {
		t.Errorf("built-in and file: %d queries, %v", len(c.Queries), err)
	}
	_, err = decode(t, KeyQueries, "scna,join9", KeyScale, "big", KeyDataDir, "rel/dir", KeyDatabase, "x-y", KeySQLFile, "/no/such.sql", KeyRepeat, "0")
	if err == nil {
		t.Fatal("bad properties accepted")
	}
	for _, want := range []string{`no built-in query "scna"`, `did you mean "scan"`, `"join9"`, "hive.scale", "hive.datadir", "must be absolute",
		"hive.database", "hive.sqlfile", "/no/such.sql", "hive.repeat"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if _, err := decode(t, KeyQueries, "none", KeyLoad, "never"); err == nil || !strings.Contains(err.Error(), "no query to run") {
		t.Errorf("no queries: %v", err)
	}
	if _, err := decode(t, KeyQueries, "scan,q1", KeyLoad, "never"); err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Errorf("a query twice: %v", err)
	}
	if _, err := decode(t, KeyDataDir, "hdfs://nn:9000"); err == nil || !strings.Contains(err.Error(), "path below the root") {
		t.Errorf("hdfs root: %v", err)
	}
}
