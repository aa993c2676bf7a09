package dfsio

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"strconv"

	"github.com/gobench/gobench/drivers"
)

// ControlDir is TestDFSIO's directory of control files (<base>/io_control).
func (c Config) ControlDir() string { return path.Join(c.BaseDir, "io_control") }

// WriteControl writes TestDFSIO's control files as its createControlFile
// does: the control directory is deleted, then one SequenceFile per file,
// io_control/in_file_test_io_<i>, holding the record (Text "test_io_<i>",
// LongWritable size). gobench does not need them (its workers take the files
// by index); they keep the base directory as TestDFSIO leaves it. Like
// TestDFSIO, call it before the timed run.
func (c Config) WriteControl(ctx context.Context, fs drivers.FileSystem) error {
	if err := fs.RemoveAll(ctx, c.ControlDir()); err != nil {
		return fmt.Errorf("dfsio: control files: %w", err)
	}
	var sync [16]byte
	rand.Read(sync[:])
	var buf []byte
	for i := 0; i < c.NrFiles; i++ {
		name := "test_io_" + strconv.Itoa(i)
		buf = appendControlFile(buf[:0], name, c.Size, sync)
		w, err := fs.Create(ctx, c.ControlDir()+"/in_file_"+name, len(buf))
		if err != nil {
			return fmt.Errorf("dfsio: control file %d: %w", i, err)
		}
		_, werr := w.Write(buf)
		if err := errors.Join(werr, w.Close()); err != nil {
			return fmt.Errorf("dfsio: control file %d: %w", i, err)
		}
	}
	return nil
}

// appendControlFile appends an uncompressed SequenceFile (version 6) of one
// record (Text key, LongWritable value) to dst.
func appendControlFile(dst []byte, key string, value int64, sync [16]byte) []byte {
	dst = append(dst, 'S', 'E', 'Q', 6)
	dst = appendHadoopString(dst, "org.apache.hadoop.io.Text")
	dst = appendHadoopString(dst, "org.apache.hadoop.io.LongWritable")
	dst = append(dst, 0, 0)                     // not compressed, not block-compressed
	dst = binary.BigEndian.AppendUint32(dst, 0) // no metadata
	dst = append(dst, sync[:]...)
	k := appendHadoopString(nil, key)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(k)+8)) // record length
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(k)))   // key length
	dst = append(dst, k...)
	return binary.BigEndian.AppendUint64(dst, uint64(value))
}

// appendHadoopString is Text.writeString: a VInt length, then UTF-8.
func appendHadoopString(dst []byte, s string) []byte {
	return append(appendVLong(dst, int64(len(s))), s...)
}

// appendVLong is Hadoop's WritableUtils.writeVLong.
func appendVLong(dst []byte, i int64) []byte {
	if i >= -112 && i <= 127 {
		return append(dst, byte(i))
	}
	l := int64(-112)
	if i < 0 {
		i = ^i
		l = -120
	}
	for t := i; t != 0; t >>= 8 {
		l--
	}
	dst = append(dst, byte(l))
	n := -(l + 112)
	if l < -120 {
		n = -(l + 120)
	}
	for idx := n; idx != 0; idx-- {
		shift := (idx - 1) * 8
		dst = append(dst, byte(i>>shift))
	}
	return dst
}
