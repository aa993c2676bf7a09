package hdfs

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	hdfsc "github.com/colinmarc/hdfs/v2"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hdfs/hwire"
)

// Conn is one worker's client. Not safe for concurrent use. Every
// operation runs between begin and end, which tie the client's connections
// to the operation's context (see [guard]). The file operations go through
// gobench's own NameNode connection (hwire); the colinmarc client, for
// listing, append, truncate, stat and recursive delete, is dialled on first
// use.
type Conn struct {
	db      *DB
	nn      *hwire.NameNode
	peers   *hwire.Peers
	cl      *hdfsc.Client // nil until needed
	g       *guard
	streams int // file streams open: the clients are not replaced while there are any
	closed  bool
	id      string // for temporary file names
	seq     uint64
	enc     []byte          // encoded record (reused)
	raw     []byte          // file contents read (reused)
	old     *drivers.Record // update's read of the old record
	nbuf    []byte          // file name (reused)
	fields  int
}

var (
	_ drivers.Conn       = (*Conn)(nil)
	_ drivers.FileSystem = (*Conn)(nil)
)

func newConn(db *DB, nn *hwire.NameNode, g *guard, n int) *Conn {
	return &Conn{db: db, nn: nn, peers: db.peers(g), g: g, id: strconv.FormatInt(time.Now().UnixNano()%1e9, 36) + "-" + strconv.Itoa(n),
		fields: len(db.schema.Fields), old: drivers.NewRecord(len(db.schema.Fields))}
}

// client returns the colinmarc client, dialling it on first use. Call it
// inside begin/end.
func (c *Conn) client() (*hdfsc.Client, error) {
	if c.cl == nil {
		cl, err := c.db.dial(c.g)
		if err != nil {
			return nil, err
		}
		c.cl = cl
	}
	return c.cl, nil
}

// Close implements [drivers.Conn]. It cuts whatever is in flight (a lease
// renewal), so it never waits on a hung NameNode.
func (c *Conn) Close(context.Context) error {
	if c.closed {
		return nil
	}
	c.closed = true
	c.g.retire()
	c.drop()
	return nil
}

// drop closes the connections of the clients (the guard has retired them).
func (c *Conn) drop() {
	if c.nn != nil {
		c.peers.Close()
		c.nn.Close()
	}
	if c.cl != nil {
		c.cl.Close()
		c.cl = nil
	}
}

// begin starts an operation under ctx: it fails with ctx's error if ctx is
// done, and replaces the clients first if the last one broke (a NameNode
// call failed or was cut). end must follow when it returns nil.
func (c *Conn) begin(ctx context.Context) error {
	if err := c.g.begin(ctx); err != nil {
		return err
	}
	if c.streams > 0 || !c.g.takeBroken() {
		return nil
	}
	c.g.retire()
	c.drop()
	if c.db.cfg.ViaColinmarc() {
		cl, err := c.db.dial(c.g)
		if err != nil {
			c.g.retire()
			c.g.end()
			return ctxErr(ctx, err)
		}
		c.g.takeBroken()
		c.cl = cl
		return nil
	}
	nn, err := c.db.dialWire(c.g)
	if err != nil {
		c.g.retire() // still broken: the next operation tries again
		c.g.end()
		return ctxErr(ctx, err)
	}
	c.g.takeBroken()
	c.nn = nn
	c.peers = c.db.peers(c.g)
	return nil
}

func (c *Conn) end() { c.g.end() }

// ctxErr returns err, wrapping ctx's error too when ctx has ended, so that
// an operation the guard cut says why.
func ctxErr(ctx context.Context, err error) error {
	if err == nil || err == io.EOF { // io.EOF is compared with ==
		return err
	}
	cerr := ctx.Err()
	if d, ok := ctx.Deadline(); cerr == nil && ok && !time.Now().Before(d) {
		cerr = context.DeadlineExceeded // the connection's deadline fired before ctx's timer
	}
	if cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w (%w)", err, cerr)
	}
	return err
}

// safe reports whether b stands for itself in a file name.
func safe(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b == '_' || b == '-'
}

const hexDigits = "0123456789ABCDEF"

// appendName appends the escaped key to dst.
func appendName(dst, key []byte) []byte {
	for _, b := range key {
		if safe(b) {
			dst = append(dst, b)
		} else {
			dst = append(dst, '%', hexDigits[b>>4], hexDigits[b&15])
		}
	}
	return dst
}

// unescape turns a file name back into its key; ok is false for names that
// are not records (temporary files).
func unescape(dst []byte, name string) ([]byte, bool) {
	for i := 0; i < len(name); i++ {
		b := name[i]
		if b != '%' {
			if !safe(b) {
				return dst, false
			}
			dst = append(dst, b)
			continue
		}
		if i+2 >= len(name) {
			return dst, false
		}
		v, err := strconv.ParseUint(name[i+1:i+3], 16, 8)
		if err != nil {
			return dst, false
		}
		dst = append(dst, byte(v))
		i += 2
	}
	return dst, true
}

func (c *Conn) name(table string, key []byte) string {
	c.nbuf = append(c.nbuf[:0], '/')
	c.nbuf = append(c.nbuf, strings.Trim(table, "/")...)
	c.nbuf = append(c.nbuf, '/')
	c.nbuf = appendName(c.nbuf, key)
	return string(c.nbuf)
}

// encode appends r's set fields as (index, length, bytes).
func encode(dst []byte, r *drivers.Record) []byte {
	for i := 0; i < r.Len(); i++ {
		if v, ok := r.Get(i); ok {
			dst = binary.AppendUvarint(dst, uint64(i))
			dst = binary.AppendUvarint(dst, uint64(len(v)))
			dst = append(dst, v...)
		}
	}
	return dst
}

var errCorrupt = errors.New("hdfs: corrupt record file")

// decode sets the fields of b selected by fields in dst.
func decode(b []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	for len(b) > 0 {
		i, n := binary.Uvarint(b)
		if n <= 0 {
			return errCorrupt
		}
		b = b[n:]
		l, n := binary.Uvarint(b)
		if n <= 0 || uint64(len(b)-n) < l {
			return errCorrupt
		}
		v := b[n : n+int(l)]
		b = b[n+int(l):]
		if int(i) < dst.Len() && wanted(fields, int(i)) {
			dst.Set(int(i), v)
		}
	}
	return nil
}

func wanted(f drivers.FieldSet, i int) bool {
	if f.All() {
		return true
	}
	for _, x := range f {
		if x == i {
			return true
		}
	}
	return false
}

// notFound wraps a missing file as drivers.ErrNotFound, and a refusal
// (AccessControlException) as FORBIDDEN.
func notFound(op, name string, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("hdfs: %s %s: %w", op, name, drivers.ErrNotFound)
	}
	return opErr(op, name, err)
}

// opErr names the operation and file in err; an AccessControlException
// (fs.ErrPermission) is FORBIDDEN.
func opErr(op, name string, err error) error {
	if name != "" {
		op += " " + name
	}
	err = fmt.Errorf("hdfs: %s: %w", op, err)
	if errors.Is(err, os.ErrPermission) {
		return &drivers.StatusError{Status: drivers.Forbidden, Err: err}
	}
	return err
}

// readFile reads the whole file into c.raw: one getBlockLocations call,
// then one positional read per block over a kept DataNode connection. A
// file still being created (an Insert in flight) is not there yet.
func (c *Conn) readFile(name string) ([]byte, error) {
	if c.nn == nil {
		return c.kreadFile(name)
	}
	r, err := hwire.Open(c.nn, c.peers, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if r.Blocks.UnderConstruction {
		return nil, fmt.Errorf("%s is being written: %w", name, os.ErrNotExist)
	}
	n := int(r.Size())
	if cap(c.raw) < n {
		c.raw = make([]byte, n)
	}
	c.raw = c.raw[:n]
	if n == 0 {
		return c.raw, nil
	}
	if _, err := r.ReadAt(c.raw, 0); err != nil && !(err == io.EOF && len(c.raw) == n) {
		return nil, err
	}
	return c.raw, nil
}

// Read implements [drivers.Conn].
func (c *Conn) Read(ctx context.Context, table string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	defer c.end()
	name := c.name(table, key)
	b, err := c.readFile(name)
	if err != nil {
		return ctxErr(ctx, notFound("read", name, err))
	}
	dst.Reset()
	if err := decode(b, fields, dst); err != nil {
		return fmt.Errorf("%w %s", err, name)
	}
	return nil
}

// Scan implements [drivers.Conn]: list the table's directory, then read the
// records from start on in key order.
func (c *Conn) Scan(ctx context.Context, table string, start []byte, count int, fields drivers.FieldSet, fn func(key []byte, r *drivers.Record) error) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	defer c.end()
	dir := tableDir(table)
	cl, err := c.client()
	if err != nil {
		return ctxErr(ctx, err)
	}
	entries, err := cl.ReadDir(dir)
	if err != nil {
		return ctxErr(ctx, notFound("scan", dir, err))
	}
	from := string(appendName(nil, start))
	rec := drivers.NewRecord(c.fields)
	var key []byte
	for _, e := range entries {
		if count <= 0 {
			break
		}
		if e.IsDir() || e.Name() < from {
			continue
		}
		k, ok := unescape(key[:0], e.Name())
		if !ok {
			continue
		}
		key = k
		b, err := c.readFile(dir + "/" + e.Name())
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted since the listing
		}
		if err != nil {
			return ctxErr(ctx, opErr("scan", dir, err))
		}
		rec.Reset()
		if err := decode(b, fields, rec); err != nil {
			return fmt.Errorf("%w %s/%s", err, dir, e.Name())
		}
		if err := fn(key, rec); err != nil {
			return err
		}
		count--
	}
	return nil
}

// Insert implements [drivers.Conn]: the record replaces any file at key,
// written in place (create with overwrite, addBlock, complete: 3 NameNode
// calls). Until it completes, Read finds no record there.
func (c *Conn) Insert(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	defer c.end()
	c.enc = encode(c.enc[:0], values)
	name := c.name(table, key)
	if c.nn == nil {
		if err := c.kwrite(ctx, name, c.enc, true); err != nil {
			return ctxErr(ctx, opErr("write", name, err))
		}
		return nil
	}
	err := c.write(ctx, name, c.enc, true)
	if err != nil && retryable(ctx, err) {
		// A write the pipeline recovery could not save: the record is in
		// memory, so write the file again (on other DataNodes), after
		// deleting the one left under construction (its lease is ours, and
		// the NameNode refuses to create a file again for its holder).
		c.nn.Delete(name, false)
		err = c.write(ctx, name, c.enc, true)
	}
	if err != nil {
		if ctx.Err() == nil {
			c.nn.Delete(name, false) // no half record left under construction
		}
		return ctxErr(ctx, opErr("write", name, err))
	}
	return nil
}

// retryable reports whether a failed write may be tried again: it failed
// on the DataNode side (not in a NameNode call, nor by ctx).
func retryable(ctx context.Context, err error) bool {
	var re *hwire.RemoteError
	return ctx.Err() == nil && !errors.As(err, &re)
}

// Update implements [drivers.Conn]: read, merge, rewrite.
func (c *Conn) Update(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	defer c.end()
	name := c.name(table, key)
	c.old.Reset()
	if b, err := c.readFile(name); err == nil {
		if err := decode(b, nil, c.old); err != nil {
			return fmt.Errorf("%w %s", err, name)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return ctxErr(ctx, notFound("update", name, err))
	}
	for i := 0; i < values.Len(); i++ {
		if v, ok := values.Get(i); ok {
			c.old.Set(i, v)
		}
	}
	c.enc = encode(c.enc[:0], c.old)
	return c.put(ctx, table, name, c.enc)
}

// Delete implements [drivers.Conn]: one delete call.
func (c *Conn) Delete(ctx context.Context, table string, key []byte) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	defer c.end()
	name := c.name(table, key)
	var err error
	if c.nn == nil {
		err = c.cl.Remove(name)
	} else {
		err = c.nn.Delete(name, false)
	}
	if err != nil {
		return ctxErr(ctx, notFound("delete", name, err))
	}
	return nil
}

// put writes data to a temporary file and renames it over name (create,
// addBlock, complete, rename2: 4 calls), so that a reader sees the old
// record or the new one, never none. When ctx ends half-way the temporary
// file stays (no call can remove it then); Scan skips it and DropTable
// removes it.
func (c *Conn) put(ctx context.Context, table, name string, data []byte) error {
	c.seq++
	tmp := tableDir(table) + "/.tmp-" + c.id + "-" + strconv.FormatUint(c.seq, 36)
	if c.nn == nil {
		if err := c.kput(ctx, tmp, name, data); err != nil {
			return ctxErr(ctx, opErr("write", name, err))
		}
		return nil
	}
	err := c.write(ctx, tmp, data, false)
	if err != nil && retryable(ctx, err) {
		c.nn.Delete(tmp, false)
		err = c.write(ctx, tmp, data, false)
	}
	if err == nil {
		err = c.nn.Rename2(tmp, name, true)
	}
	if err != nil {
		if ctx.Err() == nil {
			c.nn.Delete(tmp, false)
		}
		return ctxErr(ctx, opErr("write", name, err))
	}
	return nil
}

// write creates name (replacing a file there if overwrite) with data in it.
func (c *Conn) write(ctx context.Context, name string, data []byte, overwrite bool) error {
	w, err := c.create(ctx, name, overwrite)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// create creates name with the configured replication and block size,
// making missing parent directories, in one create call.
func (c *Conn) create(ctx context.Context, name string, overwrite bool) (*hwire.Writer, error) {
	repl, bsize := c.db.cfg.Replication, c.db.cfg.BlockSize
	d, err := c.db.defaults(c.nn)
	if err != nil {
		return nil, err
	}
	if repl == 0 {
		repl = int(d.Replication)
	}
	if bsize == 0 {
		bsize = int64(d.BlockSize)
	}
	return hwire.Create(c.nn, c.peers, name, hwire.CreateOptions{
		Perm: 0o644, Overwrite: overwrite, CreateParent: true,
		Replication: uint32(repl), BlockSize: uint64(bsize),
		ChecksumType: d.ChecksumType, BytesPerChecksum: d.BytesPerChecksum,
		Sleep: func(t time.Duration) error { return sleepCtx(ctx, t) },
	})
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func parent(name string) string {
	if i := strings.LastIndexByte(name, '/'); i > 0 {
		return name[:i]
	}
	return "/"
}

// closeWriter closes w, retrying while the NameNode waits for the last
// block's replicas (the Java client retries the same way) and ctx lasts.
func closeWriter(ctx context.Context, w *hdfsc.FileWriter) error {
	err := w.Close()
	for wait := 10 * time.Millisecond; err != nil && hdfsc.IsErrReplicating(err) && wait < 5*time.Second; wait *= 2 {
		if sleepCtx(ctx, wait) != nil {
			return err
		}
		err = w.Close()
	}
	return err
}
