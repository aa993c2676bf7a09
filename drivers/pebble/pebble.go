package pebble

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"

	peb "github.com/cockroachdb/pebble"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

func init() { drivers.Register("pebble", Driver{}) }

// Property keys.
const (
	KeyDir         = "pebble.dir"
	KeySync        = "pebble.sync"
	KeyWAL         = "pebble.wal"
	KeyCache       = "pebble.cache"
	KeyMemTable    = "pebble.memtable"
	KeyCompactions = "pebble.compactions"
	KeyBlockSize   = "pebble.blocksize"
)

// Driver is the "pebble" driver. The zero value is ready to use.
type Driver struct{}

// Keys lists pebble's properties.
func (Driver) Keys() []props.Key {
	return []props.Key{
		{Name: KeyDir, Default: "gobench-data", Usage: "directory of the store, relative to the working directory; created if missing and kept between runs", Show: true},
		{Name: KeySync, Default: "false", Usage: "fsync the write-ahead log on every write"},
		{Name: KeyWAL, Default: "true", Usage: "write a write-ahead log (false: unflushed writes are lost if the process dies)"},
		{Name: KeyCache, Default: "64MB", Usage: "block cache size"},
		{Name: KeyMemTable, Default: "64MB", Usage: "memtable size; writes stall while 4 memtables wait to be flushed"},
		{Name: KeyBlockSize, Default: "4KB", Usage: "uncompressed size of sstable data blocks (larger suits scans, smaller point reads)"},
		{Name: KeyCompactions, Default: "half the CPUs, at least 1", Usage: "maximum concurrent background compactions"},
	}
}

// Config is pebble's decoded configuration. Its zero value is not usable:
// start from [DefaultConfig].
type Config struct {
	Dir         string
	Sync        bool
	WAL         bool
	Cache       int64 // bytes
	MemTable    int64 // bytes
	Compactions int
	BlockSize   int64 // bytes
}

// DefaultConfig returns the defaults listed by [Driver.Keys].
func DefaultConfig() Config {
	return Config{Dir: "gobench-data", WAL: true, Cache: 64 << 20, MemTable: 64 << 20,
		Compactions: max(1, runtime.NumCPU()/2), BlockSize: 4 << 10}
}

// Configure decodes pebble's properties. It does no I/O: the store opens at
// the first [DB.Open].
func (Driver) Configure(p *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	before := len(p.Errs())
	def := DefaultConfig()
	cfg := Config{
		Dir:         p.String(KeyDir, def.Dir),
		Sync:        p.Bool(KeySync, def.Sync),
		WAL:         p.Bool(KeyWAL, def.WAL),
		Cache:       p.Bytes(KeyCache, def.Cache),
		MemTable:    p.Bytes(KeyMemTable, def.MemTable),
		Compactions: p.IntRange(KeyCompactions, def.Compactions, 1, 1024),
		BlockSize:   p.Bytes(KeyBlockSize, def.BlockSize),
	}
	if cfg.Dir == "" {
		p.Failf(KeyDir, "want a directory, not an empty value")
	}
	if cfg.MemTable < 1<<20 || cfg.MemTable >= 4<<30 {
		p.Failf(KeyMemTable, "want a size from 1MB to below 4GB")
	}
	if cfg.BlockSize < 512 || cfg.BlockSize > 16<<20 {
		p.Failf(KeyBlockSize, "want a size from 512B to 16MB")
	}
	if cfg.Sync && !cfg.WAL {
		p.Failf(KeySync, "%s=true needs %s=true", KeySync, KeyWAL)
	}
	if errs := p.Errs()[before:]; len(errs) > 0 {
		return nil, fmt.Errorf("configure pebble: %w", errors.Join(errs...))
	}
	return NewDB(cfg, s), nil
}

// DB is one pebble store shared by every Conn opened from it. It is safe for
// concurrent use. The store opens at the first Open and closes at Close.
type DB struct {
	cfg    Config
	fields int
	wo     *peb.WriteOptions

	mu sync.Mutex
	db *peb.DB // nil until the first Open succeeds

	// locks serialise writes to one key (striped by key hash), so that an
	// update's read-modify-write never loses a concurrent write.
	locks [256]sync.Mutex
}

// NewDB returns a DB for cfg and s; nothing is opened yet.
func NewDB(cfg Config, s drivers.Schema) *DB {
	wo := peb.NoSync
	if cfg.Sync {
		wo = peb.Sync
	}
	return &DB{cfg: cfg, fields: len(s.Fields), wo: wo}
}

// Open opens the store on first use and returns a new connection.
func (db *DB) Open(context.Context) (drivers.Conn, error) {
	p, err := db.store()
	if err != nil {
		return nil, err
	}
	return &conn{db: db, p: p, merge: drivers.NewRecord(db.fields), scan: drivers.NewRecord(db.fields)}, nil
}

// store returns the open pebble DB, opening it if needed.
func (db *DB) store() (*peb.DB, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.db != nil {
		return db.db, nil
	}
	cache := peb.NewCache(db.cfg.Cache)
	defer cache.Unref()
	opts := &peb.Options{
		Cache:                       cache,
		MemTableSize:                uint64(db.cfg.MemTable),
		MemTableStopWritesThreshold: 4,
		DisableWAL:                  !db.cfg.WAL,
		MaxConcurrentCompactions:    func() int { return db.cfg.Compactions },
		L0CompactionThreshold:       2,
		L0StopWritesThreshold:       1000,
		LBaseMaxBytes:               db.cfg.MemTable * 4,
		FormatMajorVersion:          peb.FormatNewest,
		Logger:                      quietLogger{},
	}
	opts.Levels = make([]peb.LevelOptions, 7)
	for i := range opts.Levels {
		l := &opts.Levels[i]
		l.BlockSize = int(db.cfg.BlockSize)
		l.FilterPolicy = bloomPolicy
		l.TargetFileSize = 64 << 20
	}
	p, err := peb.Open(db.cfg.Dir, opts)
	if err != nil {
		return nil, fmt.Errorf("open pebble store %q: %w", db.cfg.Dir, err)
	}
	db.db = p
	return p, nil
}

// Close closes the store. Conns must be closed first.
func (db *DB) Close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.db == nil {
		return nil
	}
	err := db.db.Close()
	db.db = nil
	if err != nil {
		return fmt.Errorf("close pebble store %q: %w", db.cfg.Dir, err)
	}
	return nil
}

// CreateTable does nothing: tables are key prefixes and exist once written.
// It fails only for a name that cannot be a table (empty, or holding a zero
// byte). Splits are ignored.
func (db *DB) CreateTable(_ context.Context, table string, _ [][]byte, _ bool) error {
	return checkTable(table)
}

// DropTable deletes every record of table.
func (db *DB) DropTable(_ context.Context, table string) error {
	if err := checkTable(table); err != nil {
		return err
	}
	p, err := db.store()
	if err != nil {
		return err
	}
	lo := append([]byte(table), 0)
	hi := append([]byte(table), 1)
	if err := p.DeleteRange(lo, hi, db.wo); err != nil {
		return fmt.Errorf("drop table %q: %w", table, err)
	}
	return nil
}

func checkTable(table string) error {
	for i := 0; i < len(table); i++ {
		if table[i] == 0 {
			return fmt.Errorf("table %s: a table name may not hold a zero byte", strconv.Quote(table))
		}
	}
	if table == "" {
		return errors.New("empty table name")
	}
	return nil
}

// lock returns the write lock of key.
func (db *DB) lock(key []byte) *sync.Mutex {
	h := uint32(2166136261)
	for _, c := range key {
		h = (h ^ uint32(c)) * 16777619
	}
	return &db.locks[h%uint32(len(db.locks))]
}

// quietLogger drops pebble's informational messages (gobench prints only its
// report) and turns its fatal ones, which mean a broken store, into panics
// rather than pebble's default os.Exit.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}

func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble: "+format, args...))
}
