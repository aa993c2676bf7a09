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
//
// The test sets no wall-clock bound of its own (on a loaded machine one block
// can take longer than a period); it asserts what holds however slow the
// blocks are, on the worker's own clock and mark: a step that starts a
// period or more after the last yield yields, every yield comes a period or
// more after the one before (not one per block), and a few yields do come.
func TestWorkerYieldsWhileItMovesBlocks(t *testing.T) {
	calls := 0
	saved := yield
	yield = func() { calls++ }
	defer func() { yield = saved }()
	dir := t.TempDir()
	ctx := context.Background()
	const want = 5
	for _, test := range []Test{Write, Read} {
		c := DefaultConfig()
		c.Test, c.Dirs, c.BlockSize, c.Size, c.Remove = test, []string{dir}, 4096, 1<<30, false
		j, err := NewJob(c)
		if err != nil {
			t.Fatal(err)
		}
		if test == Read { // a sparse file of 1 GiB: far more blocks than the test reads
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
		w := tk.(*task)
		calls = 0
		var marks []time.Duration // the worker's mark after each yield
		blocks := 0
		deadline := time.Now().Add(time.Minute)
		for len(marks) < want && time.Now().Before(deadline) {
			before, mark := calls, w.slice
			start := m.Now() // the step reads its clock after this
			if !tk.Step(ctx) {
				t.Fatalf("%s: the task stopped after %d blocks", test, blocks)
			}
			blocks++
			switch {
			case calls > before+1:
				t.Fatalf("%s: block %d yielded %d times", test, blocks, calls-before)
			case calls > before:
				marks = append(marks, w.slice)
			case start-mark >= yieldEvery:
				t.Fatalf("%s: block %d started %v after the last yield and did not yield (want one every %v)", test, blocks, start-mark, yieldEvery)
			}
		}
		if len(marks) < want {
			t.Fatalf("%s: %d yields in %d blocks over a minute, want %d", test, len(marks), blocks, want)
		}
		for i := 1; i < len(marks); i++ {
			if gap := marks[i] - marks[i-1]; gap < yieldEvery {
				t.Errorf("%s: yields %d and %d %v apart, want at least %v", test, i-1, i, gap, yieldEvery)
			}
		}
		tk.(engine.TaskCloser).Close(ctx)
	}
}
