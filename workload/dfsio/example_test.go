package dfsio_test

import (
	"context"
	"fmt"
	"os"
	"time"

	_ "github.com/gobench/gobench/drivers/localfs"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/dfsio"
)

// TestDFSIO's write test of 4 files of 8 MB on a local directory, then its
// summary lines (any driver whose DB declares drivers.CapFiles works: the
// hdfs driver's, for instance).
func ExampleJob_Summary() {
	dir, _ := os.MkdirTemp("", "dfsio")
	defer os.RemoveAll(dir)

	set := &props.Set{}
	set.Add(props.FromMap(map[string]string{
		"workload": "dfsio", "dfsio.test": "write", "dfsio.nrfiles": "4", "dfsio.size": "8MB",
		"db": "localfs", "localfs.root": dir,
	}, "example")...)
	plan, err := workload.Prepare(set)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := plan.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	s := plan.Job().(*dfsio.Job).Summary(res.RunTime)
	lines := s.Lines(time.Now(), dfsio.Format3x)
	fmt.Println(lines[0])
	fmt.Println(lines[2])
	fmt.Println(lines[3])
	// Output:
	// ----- TestDFSIO ----- : write
	//         Number of files: 4
	//  Total MBytes processed: 32
}
