package driverstest

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/gobench/gobench/drivers"
)

// BenchRecords is the number of records [Bench] loads before its read,
// update and scan benchmarks.
const BenchRecords = 10000

// BenchFieldLength is the length in bytes of each field [Bench] writes
// (YCSB's default fieldlength).
const BenchFieldLength = 100

// Bench runs the driver benchmarks Insert, Read, ReadParallel, Update and
// Scan (unless [NoScan]) with b.ReportAllocs, each on a fresh DB from open
// configured with [Schema]. Keys are YCSB-like ("user" + number), records
// have [NumFields] fields of [BenchFieldLength] bytes. The operations run
// back to back: their allocations are the driver's own.
func Bench(b *testing.B, open func(b *testing.B) drivers.DB, opts ...Option) {
	cfg := newConfig(opts)
	n := nonce()
	b.Run("Insert", func(b *testing.B) {
		e := benchSetup(b, open, cfg, n, 0)
		r := benchRecord()
		key := make([]byte, 0, 32)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			key = strconv.AppendInt(append(key[:0], "user"...), int64(i), 10)
			if err := written(e.conn.Insert(b.Context(), e.table, key, r)); err != nil {
				b.Fatalf("Insert(%s): %v", key, err)
			}
		}
	})
	b.Run("Read", func(b *testing.B) {
		e := benchSetup(b, open, cfg, n, BenchRecords)
		dst := drivers.NewRecord(NumFields)
		key := make([]byte, 0, 32)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			key = benchKey(key, i)
			if err := e.conn.Read(b.Context(), e.table, key, nil, dst); err != nil && !cfg.noData {
				b.Fatalf("Read(%s): %v", key, err)
			}
		}
	})
	b.Run("ReadParallel", func(b *testing.B) {
		e := benchSetup(b, open, cfg, n, BenchRecords)
		var next atomic.Int64
		b.ReportAllocs()
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			c, err := e.db.Open(context.Background())
			if err != nil {
				b.Errorf("Open: %v", err)
				return
			}
			defer c.Close(context.Background())
			dst := drivers.NewRecord(NumFields)
			key := make([]byte, 0, 32)
			for i := int(next.Add(1)) * 7919; pb.Next(); i++ {
				key = benchKey(key, i)
				if err := c.Read(context.Background(), e.table, key, nil, dst); err != nil && !cfg.noData {
					b.Errorf("Read(%s): %v", key, err)
					return
				}
			}
		})
	})
	b.Run("Update", func(b *testing.B) {
		e := benchSetup(b, open, cfg, n, BenchRecords)
		upd := drivers.NewRecord(NumFields)
		key := make([]byte, 0, 32)
		val := make([]byte, BenchFieldLength)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			key = benchKey(key, i)
			upd.Reset()
			val[0] = byte(i)
			upd.Set(i%NumFields, val)
			if err := written(e.conn.Update(b.Context(), e.table, key, upd)); err != nil {
				b.Fatalf("Update(%s): %v", key, err)
			}
		}
	})
	if cfg.noScan {
		return
	}
	b.Run("Scan10", func(b *testing.B) {
		e := benchSetup(b, open, cfg, n, BenchRecords)
		key := make([]byte, 0, 32)
		rows := 0
		fn := func([]byte, *drivers.Record) error { rows++; return nil }
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			key = benchKey(key, i)
			if err := e.conn.Scan(b.Context(), e.table, key, 10, nil, fn); err != nil {
				b.Fatalf("Scan(%s): %v", key, err)
			}
		}
		b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
	})
}

// benchKey returns the key of record i mod BenchRecords, spread over the
// key space by a multiplicative step.
func benchKey(dst []byte, i int) []byte {
	k := int64(uint64(i) * 2654435761 % BenchRecords)
	return strconv.AppendInt(append(dst[:0], "user"...), k, 10)
}

func benchRecord() *drivers.Record {
	r := drivers.NewRecord(NumFields)
	for f := range NumFields {
		v := make([]byte, BenchFieldLength)
		for j := range v {
			v[j] = byte('a' + (f+j)%26)
		}
		r.Set(f, v)
	}
	return r
}

// benchSetup opens a DB and a Conn, creates the table if the DB can, and
// loads records user0..user(load-1).
func benchSetup(b *testing.B, open func(b *testing.B) drivers.DB, cfg config, nonce string, load int) *env {
	b.Helper()
	db := open(b)
	ctx := context.Background()
	table := cfg.tablePrefix + "bench_" + nonce
	ta, admin := db.(drivers.TableAdmin)
	if admin {
		if err := ta.CreateTable(ctx, table, nil, true); err != nil {
			b.Fatalf("CreateTable(%q): %v", table, err)
		}
	}
	c, err := db.Open(ctx)
	if err != nil {
		b.Fatalf("Open: %v", err)
	}
	b.Cleanup(func() {
		if err := c.Close(ctx); err != nil {
			b.Errorf("Conn.Close: %v", err)
		}
		if admin {
			if err := ta.DropTable(ctx, table); err != nil {
				b.Errorf("DropTable(%q): %v", table, err)
			}
		}
		if err := db.Close(); err != nil {
			b.Errorf("DB.Close: %v", err)
		}
	})
	r := benchRecord()
	key := make([]byte, 0, 32)
	for i := range load {
		key = strconv.AppendInt(append(key[:0], "user"...), int64(i), 10)
		if err := written(c.Insert(ctx, table, key, r)); err != nil {
			b.Fatalf("load Insert(%s): %v", key, err)
		}
	}
	if err := flush(ctx, c); err != nil {
		b.Fatalf("load: %v", err)
	}
	return &env{db: db, conn: c, table: table}
}
