package hive

import (
	"bytes"
	"context"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/localfs"
)

// Through a driver's file system (here localfs, in production hdfs) the
// generator writes the same files, and finds its manifest again.
func TestFileSystemSink(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	db := localfs.New(root)
	conn, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	sink := &FileSystemSink{FS: conn.(drivers.FileSystem), Root: "/data"}
	d := Dataset{Seed: 4, Rows: [numTables]int64{3000, 4000, 9000}}
	if _, err := d.Generate(ctx, sink, 3); err != nil {
		t.Fatal(err)
	}
	local := t.TempDir()
	if _, err := d.Generate(ctx, LocalDir(local), 1); err != nil {
		t.Fatal(err)
	}
	for _, tb := range Tables() {
		if !bytes.Equal(readTable(t, root+"/data", tb), readTable(t, local, tb)) {
			t.Errorf("%s differs between the file system sink and the local directory", tb)
		}
	}
	if st, err := d.Generate(ctx, sink, 3); err != nil || !st.Reuse {
		t.Errorf("second generation through the sink: reuse %v, err %v", st.Reuse, err)
	}
}
