package hdfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	hdfsc "github.com/colinmarc/hdfs/v2"

	"github.com/gobench/gobench/drivers/hdfs/hwire"
)

// The operations of a secured DB (Kerberos or data transfer protection):
// hwire speaks SIMPLE authentication only, so every call goes through
// colinmarc's client (SASL GSSAPI to the NameNode, SASL DIGEST-MD5 with
// the block token to the DataNodes). What it costs is in doc.go.

// kreadFile reads the whole file into c.raw (getBlockLocations, then the
// blocks from their DataNodes; a file being written is not a record).
func (c *Conn) kreadFile(name string) ([]byte, error) {
	f, err := c.cl.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n := int(f.Stat().Size())
	if cap(c.raw) < n {
		c.raw = make([]byte, n)
	}
	c.raw = c.raw[:n]
	if _, err := io.ReadFull(f, c.raw); err != nil {
		return nil, err
	}
	return c.raw, nil
}

// kwrite creates name with data in it (replacing a file there when
// overwrite).
func (c *Conn) kwrite(ctx context.Context, name string, data []byte, overwrite bool) error {
	w, err := c.kcreate(name, overwrite)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return err
	}
	return closeWriter(ctx, w)
}

// kcreate creates name with the configured (or the NameNode's) replication
// and block size, making missing parents; with overwrite a file there is
// deleted first (colinmarc's create has no overwrite flag).
func (c *Conn) kcreate(name string, overwrite bool) (*hdfsc.FileWriter, error) {
	repl, bsize, err := c.kdefaults()
	if err != nil {
		return nil, err
	}
	w, err := c.cl.CreateFile(name, repl, bsize, 0o644)
	if errors.Is(err, os.ErrNotExist) {
		if merr := c.cl.MkdirAll(parent(name), 0o755); merr != nil {
			return nil, merr
		}
		w, err = c.cl.CreateFile(name, repl, bsize, 0o644)
	}
	if overwrite && errors.Is(err, os.ErrExist) {
		if rerr := c.cl.Remove(name); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return nil, rerr
		}
		w, err = c.cl.CreateFile(name, repl, bsize, 0o644)
	}
	return w, err
}

// kdefaults returns the replication and block size of new files, asking
// the NameNode once per DB when one of them is 0.
func (c *Conn) kdefaults() (int, int64, error) {
	repl, bsize := c.db.cfg.Replication, c.db.cfg.BlockSize
	if repl != 0 && bsize != 0 {
		return repl, bsize, nil
	}
	c.db.mu.Lock()
	d := c.db.defs
	c.db.mu.Unlock()
	if d == nil {
		sd, err := c.cl.ServerDefaults()
		if err != nil {
			return 0, 0, fmt.Errorf("server defaults: %w", err)
		}
		d = &hwire.Defaults{Replication: uint32(sd.Replication), BlockSize: uint64(sd.BlockSize), BytesPerChecksum: uint32(sd.BytesPerChecksum)}
		c.db.mu.Lock()
		c.db.defs = d
		c.db.mu.Unlock()
	}
	if repl == 0 {
		repl = int(d.Replication)
	}
	if bsize == 0 {
		bsize = int64(d.BlockSize)
	}
	return repl, bsize, nil
}

// kput writes data to a temporary name and renames it over name.
func (c *Conn) kput(ctx context.Context, tmp, name string, data []byte) error {
	err := c.kwrite(ctx, tmp, data, false)
	if err == nil {
		err = c.cl.Rename(tmp, name)
	}
	if err != nil && ctx.Err() == nil {
		c.cl.Remove(tmp)
	}
	return err
}
