package hbase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase/hbclient"
)

// DB is one HBase cluster connection shared by every Conn: one hbclient.Client
// (its TCP connections, region cache and meta location). It is safe for
// concurrent use. It implements drivers.TableAdmin.
type DB struct {
	cfg    Config
	table  string
	family []byte
	fields [][]byte       // qualifier of field i
	index  map[string]int // field index by qualifier
	sorted []qualField    // the fields in qualifier (HBase cell) order
	client *hbclient.Client

	setupMu   sync.Mutex
	setupDone bool
}

// qualField is a schema field and its qualifier.
type qualField struct {
	qual  []byte
	field int
}

// NewDB returns a DB for cfg and schema s. Nothing is dialled until the
// first operation.
func NewDB(cfg Config, s drivers.Schema) *DB {
	db := &DB{cfg: cfg, table: s.Table, family: []byte(cfg.Family), index: make(map[string]int, len(s.Fields))}
	for i, f := range s.Fields {
		db.fields = append(db.fields, []byte(f))
		db.index[f] = i
		db.sorted = append(db.sorted, qualField{[]byte(f), i})
	}
	slices.SortFunc(db.sorted, func(a, b qualField) int { return bytes.Compare(a.qual, b.qual) })
	db.client = hbclient.New(cfg.Client)
	return db
}

// Client returns the underlying client (for tools and tests).
func (db *DB) Client() *hbclient.Client { return db.client }

// Open returns a new connection. The first Open drops and creates the table
// when hbase.droptable / hbase.createtable ask for it, and otherwise checks
// that it exists (hbase.checktable).
func (db *DB) Open(ctx context.Context) (drivers.Conn, error) {
	if err := db.setup(ctx); err != nil {
		return nil, err
	}
	return newConn(db), nil
}

func (db *DB) setup(ctx context.Context) error {
	db.setupMu.Lock()
	defer db.setupMu.Unlock()
	if db.setupDone {
		return nil
	}
	if err := db.client.Login(ctx); err != nil {
		return fmt.Errorf("hbase: %w", err) // before any table work: the run does not start
	}
	if db.cfg.DropTable {
		err := db.client.DropTable(ctx, db.table)
		if err != nil && !errors.Is(err, hbclient.ErrTableNotFound) {
			return mapErr(fmt.Errorf("hbase.droptable: %w", err))
		}
	}
	if db.cfg.CreateTable {
		if err := db.CreateTable(ctx, db.table, SplitKeys(db.cfg.Splits), true); err != nil {
			return fmt.Errorf("hbase.createtable: %w", err)
		}
	}
	if db.cfg.CheckTable && !db.cfg.CreateTable {
		n, err := db.client.Regions(ctx, db.table)
		if err != nil {
			return mapErr(fmt.Errorf("check table %q: %w", db.table, err))
		}
		if n == 0 {
			return fmt.Errorf("table %q does not exist in HBase: create it (hbase.createtable=true, or the HBase shell), or set hbase.checktable=false", db.table)
		}
	}
	db.setupDone = true
	return nil
}

// Notes tells how often the run had to look regions up and dial servers
// (drivers.Noter; the CLI prints it on stderr after the run): on a cluster
// where regions move and servers die, these say what the faults cost.
func (db *DB) Notes() []string {
	st := db.client.Stats()
	if st.Dials == 0 && st.MetaLookups == 0 {
		return nil
	}
	return []string{fmt.Sprintf("hbase: %d hbase:meta lookups (at most %d at once), %d RegionServer dials (%d failed), %d RegionMovedException locations followed",
		st.MetaLookups, st.MaxMetaLookupsInFlight, st.Dials, st.FailedDials, st.MovedFollowed)}
}

// Close closes the cluster connection. Conns must be closed first.
func (db *DB) Close() error { return db.client.Close() }

// CreateTable creates table with the configured column family, pre-split at
// splits, and waits until it is online. With ifMissing an existing table is
// not an error.
func (db *DB) CreateTable(ctx context.Context, table string, splits [][]byte, ifMissing bool) error {
	err := db.client.CreateTable(ctx, table, []string{db.cfg.Family}, splits)
	if ifMissing && errors.Is(err, hbclient.ErrTableExists) {
		return nil
	}
	return mapErr(err)
}

// DropTable disables and deletes table.
func (db *DB) DropTable(ctx context.Context, table string) error {
	return mapErr(db.client.DropTable(ctx, table))
}

// mapErr adds drivers.ErrUnavailable to errors that mean the cluster could
// not be reached, and marks AccessDeniedException FORBIDDEN.
func mapErr(err error) error {
	if err != nil && errors.Is(err, hbclient.ErrConnection) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w: %w", drivers.ErrUnavailable, err)
	}
	return forbidden(err)
}
