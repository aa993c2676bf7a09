package disk

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/diskfile"
	"github.com/gobench/gobench/engine"
)

// One block written or read allocates nothing: the Step, the driver's
// write or read, and the measurement.
func TestStepAllocatesNothing(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	for _, test := range []Test{Write, Read} {
		c := DefaultConfig()
		c.Test, c.Dirs, c.BlockSize, c.Size, c.Remove = test, []string{dir}, 4096, 1<<30, false
		j, err := NewJob(c)
		if err != nil {
			t.Fatal(err)
		}
		conn, _ := diskfile.New("/", diskfile.Modes{DirectRead: true}).Open(ctx)
		if test == Read { // 4 MiB to read: more than the runs below take
			w, _ := conn.(drivers.FileSystem).Create(ctx, c.Paths()[0], 4096)
			w.Write(make([]byte, 4<<20))
			w.Close()
		}
		m := engine.NewMeter(engine.DefaultSettings(), j)
		tk, err := j.NewTask(0, conn, rand.New(rand.NewPCG(1, 2)), m)
		if err != nil {
			t.Fatal(err)
		}
		tk.Step(ctx) // the open
		if n := testing.AllocsPerRun(500, func() {
			if !tk.Step(ctx) {
				t.Fatal("the task stopped")
			}
		}); n != 0 {
			t.Errorf("%s: %.2f allocations per block", test, n)
		}
		tk.(engine.TaskCloser).Close(ctx)
	}
}
