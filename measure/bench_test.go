package measure

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func BenchmarkRecord(b *testing.B) {
	c := NewCollector(testLayout, Options{Start: t0})
	r := c.NewRecorder()
	r.Record(0, time.Millisecond)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Record(0, time.Duration(i&0xffff)*time.Microsecond)
	}
}

// BenchmarkRecordOp: one operation's sample, code and completion, in a
// recorder shared by workers and in a single-writer one.
func BenchmarkRecordOp(b *testing.B) {
	for _, single := range []bool{false, true} {
		name := "shared"
		if single {
			name = "single-writer"
		}
		b.Run(name, func(b *testing.B) {
			c := NewCollector(testLayout, Options{Start: t0})
			r := c.NewRecorder()
			if single {
				r = c.NewSingleWriterRecorder()
			}
			r.Record(0, time.Millisecond)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				r.RecordOp(0, time.Duration(i&0xffff)*time.Microsecond, 0, 0, 1)
			}
		})
	}
}

func BenchmarkCount(b *testing.B) {
	c := NewCollector(testLayout, Options{Start: t0})
	r := c.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		r.Count(0, 1)
	}
}

func BenchmarkDone(b *testing.B) {
	c := NewCollector(testLayout, Options{Start: t0})
	r := c.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		r.Done(1)
	}
}

// BenchmarkRecordParallel records from GOMAXPROCS workers, each with its
// own recorder.
func BenchmarkRecordParallel(b *testing.B) {
	c := NewCollector(testLayout, Options{Start: t0})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		r := c.NewRecorder()
		r.Record(0, time.Millisecond)
		i := 0
		for pb.Next() {
			r.Record(0, time.Duration(i&0xffff)*time.Microsecond)
			r.Count(0, 0)
			r.Done(1)
			i++
		}
	})
}

// BenchmarkRecordShared records from GOMAXPROCS workers sharing one
// recorder (the worst case of the runner's sharing).
func BenchmarkRecordShared(b *testing.B) {
	c := NewCollector(testLayout, Options{Start: t0})
	r := c.NewRecorder()
	r.Record(0, time.Millisecond)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			r.Record(0, time.Duration(i&0xffff)*time.Microsecond)
			r.Count(0, 0)
			r.Done(1)
			i++
		}
	})
}

// BenchmarkRecordManyWriters is the runner's case with many more workers
// than CPUs (here 125 per CPU, 4 recorders per CPU): each operation's
// RecordOp goes to a multi-writer recorder shared round-robin (atomic adds
// inside a phaser section) or to a recorder claimed from a pool (plain
// adds under the claim).
func BenchmarkRecordManyWriters(b *testing.B) {
	const perCPU, recsPerCPU = 125, 4
	n := recsPerCPU * runtime.GOMAXPROCS(0)
	b.Run("shared", func(b *testing.B) {
		c := NewCollector(testLayout, Options{Start: t0})
		recs := make([]*Recorder, n)
		for i := range recs {
			recs[i] = c.NewRecorder()
		}
		var id atomic.Int64
		b.ReportAllocs()
		b.SetParallelism(perCPU)
		b.RunParallel(func(pb *testing.PB) {
			r := recs[int(id.Add(1))%n]
			for i := 0; pb.Next(); i++ {
				r.RecordOp(0, time.Duration(i&0xffff)*time.Microsecond, 0, 0, 1)
			}
		})
	})
	b.Run("pooled", func(b *testing.B) {
		c := NewCollector(testLayout, Options{Start: t0})
		p := c.NewPool(n)
		b.ReportAllocs()
		b.SetParallelism(perCPU)
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				r := p.Claim()
				r.RecordOp(0, time.Duration(i&0xffff)*time.Microsecond, 0, 0, 1)
				r.Release()
			}
		})
	})
}

// BenchmarkCut measures one interval cut over 64 recorders that each used
// three series.
func BenchmarkCut(b *testing.B) {
	c := NewCollector(testLayout, Options{Start: t0})
	var recs []*Recorder
	for i := 0; i < 64; i++ {
		recs = append(recs, c.NewRecorder())
	}
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range recs {
			for s := 0; s < 3; s++ {
				r.Record(s, time.Duration(100+s*1000)*time.Microsecond)
				r.Count(s, 0)
			}
			r.Done(3)
		}
		now = now.Add(time.Second)
		c.Cut(now)
	}
}
