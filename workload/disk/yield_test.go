package disk

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers/diskfile"
	"github.com/gobench/gobench/engine"
)

// A worker that only writes or reads yields its goroutine at least every
// yieldEvery, so that the Go runtime never takes it for one that runs too
// long (which made the runtime take its P away in every blocking call).
func TestWorkerYieldsWhileItMovesBlocks(t *testing.T) {
	calls := 0
	saved := yield
	yield = func() { calls++ }
	defer func() { yield = saved }()
	dir := t.TempDir()
	ctx := context.Background()
	for _, test := range []Test{Write, Read} {
		c := DefaultConfig()
		c.Test, c.Dirs, c.BlockSize, c.Size, c.Remove = test, []string{dir}, 4096, 1<<30, false
		j, err := NewJob(c)
		if err != nil {
			t.Fatal(err)
		}
		if test == Read { // a sparse file of 1 GiB: more than 20 ms of reads
			if err := os.Truncate(c.Paths()[0], 1<<30); err != nil {
				t.Fatal(err)
			}
		}
		conn, _ := diskfile.New("/", diskfile.Modes{}).Open(ctx)
		m := engine.NewMeter(engine.DefaultSettings(), j)
		tk, err := j.NewTask(0, conn, rand.New(rand.NewPCG(1, 2)), m)
		if err != nil {
			t.Fatal(err)
		}
		tk.Step(ctx) // the open
		calls = 0
		start := time.Now()
		blocks := 0
		for time.Since(start) < 10*yieldEvery {
			if !tk.Step(ctx) {
				t.Fatalf("%s: the task stopped after %d blocks", test, blocks)
			}
			blocks++
		}
		// Ten periods: at least a few yields, however slow the blocks, and
		// not one per block.
		if calls < 3 || calls > blocks/2 {
			t.Errorf("%s: %d yields in %v and %d blocks, want one every %v", test, calls, time.Since(start), blocks, yieldEvery)
		}
		tk.(engine.TaskCloser).Close(ctx)
	}
}
