package timeseries_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
)

// dumpDriver is a driver that stores nothing and prints every call as
// testdata/java/TSDump.java does under Java YCSB, so that the two can be
// compared line for line.
type dumpDriver struct{ db *dumpDB }

type dumpDB struct {
	schema drivers.Schema
	mu     sync.Mutex
	lines  []string
}

func (d dumpDriver) Keys() []props.Key { return nil }
func (d dumpDriver) Configure(_ *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	d.db.schema = s
	return d.db, nil
}
func (db *dumpDB) Open(context.Context) (drivers.Conn, error) { return &dumpConn{db}, nil }
func (db *dumpDB) Close() error                               { return nil }

type dumpConn struct{ db *dumpDB }

func (c *dumpConn) emit(s string) {
	c.db.mu.Lock()
	c.db.lines = append(c.db.lines, s)
	c.db.mu.Unlock()
}

// values prints the fields (the schema is sorted, as Java's TreeMap) with
// the timestamp and value decoded: long:<n>, or double:<d> as Java's
// Double.toString for a value that is not a whole number's bits.
func (c *dumpConn) values(r *drivers.Record, tsKey, valKey, valueType string) string {
	var b strings.Builder
	b.WriteString("[ ")
	for i, name := range c.db.schema.Fields {
		v, ok := r.Get(i)
		if !ok {
			continue
		}
		b.WriteString(name + "=")
		switch {
		case name == tsKey || name == valKey && valueType == "integers":
			fmt.Fprintf(&b, "long:%d", int64(binary.BigEndian.Uint64(v)))
		case name == valKey:
			b.WriteString("double:<random>")
		default:
			b.Write(v)
		}
		b.WriteByte(' ')
	}
	b.WriteString("]")
	return b.String()
}

var valueType = "integers"

func (c *dumpConn) Read(_ context.Context, _ string, key []byte, _ drivers.FieldSet, dst *drivers.Record) error {
	dst.Reset()
	c.emit("READ " + string(key))
	return nil
}
func (c *dumpConn) Scan(_ context.Context, _ string, key []byte, n int, _ drivers.FieldSet, _ func([]byte, *drivers.Record) error) error {
	c.emit(fmt.Sprintf("SCAN %s %d", key, n))
	return nil
}
func (c *dumpConn) Update(_ context.Context, _ string, key []byte, v *drivers.Record) error {
	c.emit("UPDATE " + string(key) + " " + c.values(v, "YCSBTS", "YCSBV", valueType))
	return nil
}
func (c *dumpConn) Insert(_ context.Context, _ string, key []byte, v *drivers.Record) error {
	c.emit("INSERT " + string(key) + " " + c.values(v, "YCSBTS", "YCSBV", valueType))
	return nil
}
func (c *dumpConn) Delete(_ context.Context, _ string, key []byte) error {
	c.emit("DELETE " + string(key))
	return nil
}
func (c *dumpConn) Close(context.Context) error { return nil }

// byKey groups lines by their metric key (the second word), keeping their
// order: each key belongs to one thread, so its sequence is the same
// whatever the threads' interleaving.
func byKey(lines []string) map[string][]string {
	m := map[string][]string{}
	for _, l := range lines {
		f := strings.Fields(l)
		m[f[1]] = append(m[f[1]], l)
	}
	return m
}

var randomDouble = regexp.MustCompile(`YCSBV=double:\S+`)

// TestLoadMatchesJava: for each testdata/java/<name>.properties, gobench's
// load writes the data points Java YCSB 0.17.0's TimeSeriesWorkload wrote
// (<name>.out, made by make-fixtures.sh): the same metric keys, tags,
// timestamps and, with dataintegrity, values, in the same order per key.
func TestLoadMatchesJava(t *testing.T) {
	files, _ := filepath.Glob("testdata/java/*.properties")
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata/java")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".properties")
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(strings.TrimSuffix(file, ".properties") + ".out")
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			vals, err := props.Parse(f, file)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			set := &props.Set{}
			set.Add(vals...)
			set.Add(props.FromMap(map[string]string{"workload": "site.ycsb.workloads.TimeSeriesWorkload", "dotransactions": "false", "gobench.seed": "1"}, "test")...)
			valueType = "integers"
			if v, ok := set.Get("valuetype"); ok {
				valueType = v.Value
			}
			db := &dumpDB{}
			plan, err := workload.Prepare(set, workload.WithDriver("dump", dumpDriver{db}))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := plan.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			wantLines := strings.Split(strings.TrimSpace(string(want)), "\n")
			for i := range wantLines {
				wantLines[i] = randomDouble.ReplaceAllString(wantLines[i], "YCSBV=double:<random>")
			}
			if len(db.lines) != len(wantLines) {
				t.Errorf("%d data points, Java wrote %d", len(db.lines), len(wantLines))
			}
			got, exp := byKey(db.lines), byKey(wantLines)
			keys := func(m map[string][]string) []string {
				var k []string
				for key := range m {
					k = append(k, key)
				}
				slices.Sort(k)
				return k
			}
			if !slices.Equal(keys(got), keys(exp)) {
				t.Fatalf("metric keys %v, Java's %v", keys(got), keys(exp))
			}
			for key, w := range exp {
				g := got[key]
				for i := range max(len(g), len(w)) {
					if i >= len(g) || i >= len(w) || g[i] != w[i] {
						gl, wl := "(none)", "(none)"
						if i < len(g) {
							gl = g[i]
						}
						if i < len(w) {
							wl = w[i]
						}
						t.Fatalf("key %s, point %d:\n gobench %s\n    Java %s", key, i, gl, wl)
					}
				}
			}
		})
	}
}
