package workload_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/gobench/gobench/drivers/localfs"
	"github.com/gobench/gobench/workload"
)

// TestDFSIO's write test of 4 files of 8 MB on a local directory, then its
// summary lines (any drivers.DB whose Conn is a drivers.FileSystem works:
// the hdfs driver's, for instance).
func ExampleNewDFSIO() {
	dir, _ := os.MkdirTemp("", "dfsio")
	defer os.RemoveAll(dir)

	cfg := workload.DefaultDFSIOConfig()
	cfg.Test, cfg.NrFiles, cfg.Size = workload.DFSIOWrite, 4, 8<<20
	job, err := workload.NewDFSIO(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	spec := workload.DefaultSpec()
	spec.Threads = cfg.Workers(0) // one worker per file
	r, _ := workload.NewJob(spec, job, localfs.New(dir))
	res, err := r.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	s := job.Summary(res.RunTime)
	lines := s.Lines(time.Now(), workload.DFSIOFormat3x)
	fmt.Println(lines[0])
	fmt.Println(lines[2])
	fmt.Println(lines[3])
	// Output:
	// ----- TestDFSIO ----- : write
	//         Number of files: 4
	//  Total MBytes processed: 32
}
