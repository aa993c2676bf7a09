package dfsio

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

// The bytes of a control file written by Hadoop 3.5's TestDFSIO
// (in_file_test_io_1 of -size 1MB), with its random sync marker.
const javaControlFile = "53455106196f72672e6170616368652e6861646f6f702e696f2e5465787421" +
	"6f72672e6170616368652e6861646f6f702e696f2e4c6f6e675772697461626c65" +
	"0000000000000bceb082cb8d5bde1318c7e378d72e19" +
	"000000120000000a09746573745f696f5f310000000000100000"

func TestControlFileMatchesJava(t *testing.T) {
	want, _ := hex.DecodeString(javaControlFile)
	var sync [16]byte
	copy(sync[:], want[len(want)-16-26:])
	got := appendControlFile(nil, "test_io_1", 1<<20, sync)
	if !bytes.Equal(got, want) {
		t.Errorf("control file\n got % x\nwant % x", got, want)
	}
}

func TestVLong(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want string
	}{{0, "00"}, {127, "7f"}, {-112, "90"}, {128, "8f80"}, {255, "8fff"}, {256, "8e0100"}, {-113, "8770"}, {1 << 40, "8a010000000000"}} {
		if got := hex.EncodeToString(appendVLong(nil, c.v)); got != c.want {
			t.Errorf("appendVLong(%d) = %s, want %s", c.v, got, c.want)
		}
	}
}

func TestWriteControl(t *testing.T) {
	fs := newMemFS()
	c := Config{Test: Write, NrFiles: 3, Size: 5 << 20, BufferSize: 10, BaseDir: "/b"}
	fs.files["/b/io_control/in_file_test_io_9"] = []byte("stale")
	conn, _ := fs.Open(t.Context())
	if err := c.WriteControl(t.Context(), conn.(*memConn)); err != nil {
		t.Fatal(err)
	}
	if _, ok := fs.files["/b/io_control/in_file_test_io_9"]; ok {
		t.Error("the control dir was not cleared first")
	}
	b := fs.files["/b/io_control/in_file_test_io_2"]
	if !strings.HasPrefix(string(b), "SEQ\x06") || !bytes.HasSuffix(b, []byte("test_io_2\x00\x00\x00\x00\x00\x50\x00\x00")) {
		t.Errorf("control file 2: %q", b)
	}
}
