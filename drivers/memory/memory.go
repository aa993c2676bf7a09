package memory

import (
	"context"
	"fmt"
	"sync"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func init() { drivers.Register("memory", Driver{}) }

// Driver is the "memory" driver. It has no properties. The zero value is
// ready to use.
type Driver struct{}

// Keys returns nil: the memory driver has no properties.
func (Driver) Keys() []props.Key { return nil }

// Configure returns an empty store for schema s. It does no I/O and never
// fails.
func (Driver) Configure(_ *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	return NewDB(s), nil
}

// DB is one in-process store: a set of tables shared by every Conn opened
// from it. It is safe for concurrent use. Its data lives until Close.
type DB struct {
	fields int
	mu     sync.RWMutex
	tables map[string]*table
}

// NewDB returns an empty store whose records have the fields of s.
func NewDB(s drivers.Schema) *DB {
	return &DB{fields: len(s.Fields), tables: map[string]*table{}}
}

// table is one ordered table, guarded by its own lock so that tables do not
// contend with one another.
type table struct {
	mu sync.RWMutex
	sl *skiplist
}

// Open returns a new connection. It never fails.
func (db *DB) Open(context.Context) (drivers.Conn, error) { return &conn{db: db}, nil }

// Close drops every table.
func (db *DB) Close() error {
	db.mu.Lock()
	db.tables = map[string]*table{}
	db.mu.Unlock()
	return nil
}

// Len returns the number of records in table name.
func (db *DB) Len(name string) int {
	t := db.table(name, false)
	if t == nil {
		return 0
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.sl.n
}

// table returns the named table, creating it if create is set; it returns
// nil for a missing table otherwise.
func (db *DB) table(name string, create bool) *table {
	db.mu.RLock()
	t := db.tables[name]
	db.mu.RUnlock()
	if t != nil || !create {
		return t
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if t = db.tables[name]; t == nil {
		t = &table{sl: newSkiplist()}
		db.tables[name] = t
	}
	return t
}

// conn is one worker's handle. It caches the last table it used and keeps
// the scratch space scans copy records into.
type conn struct {
	db    *DB
	tname string
	t     *table
	keys  [][]byte
	recs  []*drivers.Record
}

// tableFor returns the table for name, from the one-entry cache when it
// can. A missing table is created only when create is set.
func (c *conn) tableFor(name string, create bool) *table {
	if c.t != nil && c.tname == name {
		return c.t
	}
	t := c.db.table(name, create)
	if t != nil {
		c.tname, c.t = name, t
	}
	return t
}

func notFound(table string, key []byte) error {
	return fmt.Errorf("table %q key %q: %w", table, key, drivers.ErrNotFound)
}

// Read copies the requested fields of key into dst.
func (c *conn) Read(_ context.Context, tname string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	t := c.tableFor(tname, false)
	if t == nil {
		return notFound(tname, key)
	}
	t.mu.RLock()
	n := t.sl.get(key)
	if n == nil {
		t.mu.RUnlock()
		return notFound(tname, key)
	}
	fill(dst, n.vals, fields)
	t.mu.RUnlock()
	return nil
}

// fill resets dst and copies the selected present values into it.
func fill(dst *drivers.Record, vals [][]byte, fields drivers.FieldSet) {
	dst.Reset()
	if fields.All() {
		for i, v := range vals {
			if v != nil {
				dst.Set(i, v)
			}
		}
		return
	}
	for _, i := range fields {
		if i >= 0 && i < len(vals) && vals[i] != nil {
			dst.Set(i, vals[i])
		}
	}
}

// Scan copies up to count records into the Conn's scratch space under the
// table's read lock, then calls fn without holding it, so fn may do
// anything, including other operations on this Conn's DB.
func (c *conn) Scan(_ context.Context, tname string, start []byte, count int, fields drivers.FieldSet, fn func([]byte, *drivers.Record) error) error {
	t := c.tableFor(tname, false)
	if t == nil || count <= 0 {
		return nil
	}
	for len(c.recs) < count {
		c.recs = append(c.recs, drivers.NewRecord(c.db.fields))
		c.keys = append(c.keys, nil)
	}
	t.mu.RLock()
	rows := 0
	for n := t.sl.seek(start, nil); n != nil && rows < count; n = n.next[0] {
		c.keys[rows] = append(c.keys[rows][:0], n.key...)
		fill(c.recs[rows], n.vals, fields)
		rows++
	}
	t.mu.RUnlock()
	for i := range rows {
		if err := fn(c.keys[i], c.recs[i]); err != nil {
			return err
		}
	}
	return nil
}

// Update sets the given fields of key, creating the record if it is
// missing (as HBase does).
func (c *conn) Update(_ context.Context, tname string, key []byte, values *drivers.Record) error {
	c.write(tname, key, values, false)
	return nil
}

// Insert replaces the record at key with values.
func (c *conn) Insert(_ context.Context, tname string, key []byte, values *drivers.Record) error {
	c.write(tname, key, values, true)
	return nil
}

func (c *conn) write(tname string, key []byte, values *drivers.Record, replace bool) {
	t := c.tableFor(tname, true)
	// Copy the values into one fresh buffer before taking the lock, so the
	// critical section only links them in.
	size := 0
	for i := range c.db.fields {
		if v, ok := values.Get(i); ok {
			size += len(v)
		}
	}
	// The key shares the buffer; it is wasted only when the record exists.
	buf := make([]byte, 0, len(key)+size)
	buf = append(buf, key...)
	stored := buf[:len(key):len(key)]
	var vals [maxInline][]byte
	copied := vals[:0]
	if c.db.fields > maxInline {
		copied = make([][]byte, 0, c.db.fields)
	}
	for i := range c.db.fields {
		v, ok := values.Get(i)
		if !ok {
			copied = append(copied, nil)
			continue
		}
		buf = append(buf, v...)
		copied = append(copied, buf[len(buf)-len(v):len(buf):len(buf)])
	}
	t.mu.Lock()
	n := t.sl.upsert(stored, c.db.fields)
	for i, v := range copied {
		if v != nil || replace {
			n.vals[i] = v
		}
	}
	t.mu.Unlock()
}

// maxInline is the field count up to which write keeps its value table on
// the stack.
const maxInline = 32

// Delete removes key. Like HBase and pebble, deleting a missing key is not
// an error.
func (c *conn) Delete(_ context.Context, tname string, key []byte) error {
	t := c.tableFor(tname, false)
	if t == nil {
		return nil
	}
	t.mu.Lock()
	t.sl.delete(key)
	t.mu.Unlock()
	return nil
}

// Close releases the scratch space; the store itself stays open.
func (c *conn) Close(context.Context) error {
	c.keys, c.recs, c.t = nil, nil, nil
	return nil
}
