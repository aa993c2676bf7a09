//go:build integration

package hdfs

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"syscall"
	"testing"
	"time"

	hdfsc "github.com/colinmarc/hdfs/v2"

	"github.com/gobench/gobench/drivers/hdfs/hwire"
)

// BenchmarkIntegrationRandomRead measures the steps of issue 19 on the
// real HDFS: 1 MB positional reads at random offsets of a 64 MB file, as
// dfsio -read -random does, through
//
//   - colinmarc: colinmarc/hdfs's ReadAt (a new DataNode connection per
//     read, asking for the rest of the block);
//
//   - exact: gobench's reader asking for exactly the bytes wanted, on a new
//     connection each time (kept connections expire at once);
//
//   - kept: the same on the connection the last read left (the driver's).
//
// cpu-us/op is the client's CPU time per read.
//
//	flock /tmp/gobench-realservers.lock go test -tags integration -run '^$' -bench RandomRead -benchtime 200x ./drivers/hdfs/
func BenchmarkIntegrationRandomRead(b *testing.B) {
	const size, buf = 64 << 20, 1000000
	db := openDB(b)
	ctx := context.Background()
	conn, err := db.Open(ctx)
	if err != nil {
		b.Fatal(err)
	}
	c := conn.(*Conn)
	defer c.Close(ctx)
	name := "/benchmarks/gobench-randomread-bench"
	w, err := c.Create(ctx, name, buf)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w.Write(bytes.Repeat([]byte("0123456789"), size/10)); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	defer c.RemoveAll(ctx, name)
	p := make([]byte, buf)
	run := func(b *testing.B, readAt func([]byte, int64) (int, error)) {
		rnd := rand.New(rand.NewPCG(1, 1))
		b.SetBytes(buf)
		b.ResetTimer()
		cpu0 := cpuTime()
		defer func() { b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-us/op") }()
		for range b.N {
			off := rnd.Int64N(size - buf)
			if n, err := readAt(p, off); err != nil || n != buf {
				b.Fatalf("ReadAt(%d) = %d, %v", off, n, err)
			}
		}
	}
	b.Run("colinmarc", func(b *testing.B) {
		cl, err := hdfsc.NewClient(hdfsc.ClientOptions{Addresses: db.cfg.Namenodes, User: db.cfg.User})
		if err != nil {
			b.Fatal(err)
		}
		defer cl.Close()
		f, err := cl.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		run(b, f.ReadAt)
	})
	for _, v := range []struct {
		name   string
		expiry time.Duration
	}{{"exact", time.Nanosecond}, {"kept", 0}} {
		b.Run(v.name, func(b *testing.B) {
			dials := 0
			peers := &hwire.Peers{Expiry: v.expiry, Dial: func(a string) (net.Conn, error) {
				dials++
				return net.Dial("tcp", a)
			}}
			defer peers.Close()
			r, err := hwire.Open(c.nn, peers, name)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			run(b, r.ReadAt)
			b.ReportMetric(float64(dials)/float64(b.N), "dials/op")
		})
	}
}

// cpuTime is the process's user + system CPU time so far: the client's
// cost of a read, which the loaded shared machine does not blur as it
// blurs wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
