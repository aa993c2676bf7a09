package drivers

import (
	"context"
	"io"
)

// FileSystem is implemented by a Conn that serves named byte streams (HDFS
// files, a local disk): what the dfsio workload (TestDFSIO) needs. A DB
// whose Conns implement it declares [CapFiles].
//
// Names are absolute, slash-separated paths in the file system's own
// namespace ("/benchmarks/TestDFSIO/io_data/test_io_0"). A missing file is
// reported as an error wrapping [ErrNotFound]. Like the Conn, a FileSystem
// and the streams it returns are used by one goroutine at a time.
//
// Streams honour the ctx they were opened with: once it is done, further
// calls on the stream fail at once; a call in progress is bounded by the
// driver's own I/O timeout (hdfs.timeout for HDFS).
// Buffers passed to Write, Read and ReadAt are the caller's; a stream keeps
// no reference to them after the call returns.
type FileSystem interface {
	// Create creates the file name, replacing any file already there and
	// creating missing parent directories (Hadoop's create with overwrite).
	// bufferSize is the caller's I/O size in bytes, a hint. The data is
	// durable as the file system defines it only after Close has returned
	// nil (HDFS: every packet acknowledged and the file completed).
	Create(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error)
	// Append opens the existing file name for writing at its end.
	Append(ctx context.Context, name string, bufferSize int) (io.WriteCloser, error)
	// Open opens the existing file name for reading.
	Open(ctx context.Context, name string) (FileReader, error)
	// Size returns the length in bytes of the file name.
	Size(ctx context.Context, name string) (int64, error)
	// Truncate cuts the file name to size bytes. done is false when the
	// file system finishes the truncation in the background (HDFS block
	// recovery): the caller polls Size until it equals size.
	Truncate(ctx context.Context, name string, size int64) (done bool, err error)
	// RemoveAll removes name and everything below it; a missing name is not
	// an error.
	RemoveAll(ctx context.Context, name string) error
}

// FileReader is an open file of a [FileSystem]. Read reads sequentially;
// ReadAt is a positional read (Hadoop's pread) that does not move the
// sequential offset. Both follow the io contracts: at the end of the file
// they return io.EOF.
type FileReader interface {
	io.Reader
	io.ReaderAt
	io.Closer
	// Size is the file's length in bytes when it was opened.
	Size() int64
}
