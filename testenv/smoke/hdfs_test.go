//go:build integration

package smoke

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"path"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
)

// TestHDFSWriteReadListDelete writes a multi-block file, reads it back, lists its
// directory and deletes it.
func TestHDFSWriteReadListDelete(t *testing.T) {
	requireUp(t, "hdfs", hdfsAddr)
	dial := (&net.Dialer{Timeout: 5 * time.Second}).DialContext
	c, err := hdfs.NewClient(hdfs.ClientOptions{
		Addresses:        []string{hdfsAddr},
		User:             "gobench",
		NamenodeDialFunc: dial,
		DatanodeDialFunc: dial,
	})
	if err != nil {
		t.Fatalf("connect to hdfs namenode %s: %v", hdfsAddr, err)
	}
	defer c.Close()

	dir := fmt.Sprintf("/gobench-smoke-%d", time.Now().UnixNano())
	if err := c.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("mkdir %s: %v", dir, err)
	}
	defer func() {
		if err := c.RemoveAll(dir); err != nil {
			t.Errorf("remove %s: %v", dir, err)
		}
	}()

	// 3 MiB + 12345 B with a 1 MiB block size: four blocks, each its own DataNode pipeline.
	data := make([]byte, 3<<20+12345)
	for i := range data {
		data[i] = byte(i*7 + i>>11)
	}
	name := path.Join(dir, "f")
	w, err := c.CreateFile(name, 1, 1<<20, 0o644)
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatalf("write %s: %v", name, err)
	}
	// Close may report "replication in progress" until the DataNode's block report reaches
	// the NameNode; retry with backoff, as the Java client does.
	err = w.Close()
	for wait := 10 * time.Millisecond; hdfs.IsErrReplicating(err) && wait < 10*time.Second; wait *= 2 {
		time.Sleep(wait)
		err = w.Close()
	}
	if err != nil {
		t.Fatalf("close %s: %v", name, err)
	}

	r, err := c.Open(name)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes from %s, differ from the %d written", len(got), name, len(data))
	}

	infos, err := c.ReadDir(dir)
	if err != nil {
		t.Fatalf("list %s: %v", dir, err)
	}
	if len(infos) != 1 || infos[0].Name() != "f" || infos[0].Size() != int64(len(data)) {
		t.Fatalf("list %s = %v, want one file f of %d bytes", dir, names(infos), len(data))
	}

	if err := c.Remove(name); err != nil {
		t.Fatalf("delete %s: %v", name, err)
	}
	if _, err := c.Stat(name); !os.IsNotExist(err) {
		t.Fatalf("stat %s after delete: err = %v, want not-exist", name, err)
	}
}

func names(infos []os.FileInfo) []string {
	var s []string
	for _, fi := range infos {
		s = append(s, fmt.Sprintf("%s(%d)", fi.Name(), fi.Size()))
	}
	return s
}
