package diskfile

import (
	"context"
	"errors"
	"io"
	"os"
	"unsafe"
)

// align is a file's direct-I/O alignment: of buffer addresses and of
// lengths and offsets.
type align struct{ mem, offset int }

// alignedBuf returns n bytes whose address is a multiple of al.mem.
func alignedBuf(n int, al align) []byte {
	b := make([]byte, n+al.mem)
	off := 0
	if r := int(uintptr(unsafe.Pointer(&b[0])) % uintptr(al.mem)); r != 0 {
		off = al.mem - r
	}
	return b[off : off+n : off+n]
}

func aligned(b []byte, al align) bool {
	return len(b) > 0 && uintptr(unsafe.Pointer(&b[0]))%uintptr(al.mem) == 0 && len(b)%al.offset == 0
}

func roundUp(n, a int) int { return (n + a - 1) / a * a }

// writer writes a file with the Modes' flags.
type writer struct {
	f      *os.File
	ctx    context.Context
	conv   Conv
	direct bool
	al     align
	bounce []byte
}

func (w *writer) Write(b []byte) (int, error) {
	if err := w.ctx.Err(); err != nil {
		return 0, err
	}
	if !w.direct {
		return w.f.Write(b)
	}
	n := 0
	whole := len(b) - len(b)%w.al.offset
	if whole > 0 {
		k, err := w.writeDirect(b[:whole])
		n += k
		if err != nil {
			return n, err
		}
	}
	if whole < len(b) {
		// The file's last block, shorter than the alignment: written
		// without O_DIRECT, as dd does (conv=fdatasync still flushes it).
		if err := setDirect(w.f, false); err != nil {
			return n, err
		}
		w.direct = false
		k, err := w.f.Write(b[whole:])
		return n + k, err
	}
	return n, nil
}

// writeDirect writes b (a multiple of the alignment long) with O_DIRECT,
// through an aligned copy when b itself is not aligned.
func (w *writer) writeDirect(b []byte) (int, error) {
	if aligned(b, w.al) {
		return w.f.Write(b)
	}
	if len(w.bounce) == 0 {
		w.bounce = alignedBuf(roundUp(min(len(b), 1<<20), w.al.offset), w.al)
	}
	n := 0
	for n < len(b) {
		k := copy(w.bounce, b[n:])
		if _, err := w.f.Write(w.bounce[:k]); err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}

// Close flushes the file as conv says (dd's conv=fdatasync or fsync,
// inside the measured time as in dd) and closes it.
func (w *writer) Close() error {
	var serr error
	switch w.conv {
	case Fdatasync:
		serr = fdatasync(w.f)
	case Fsync:
		serr = w.f.Sync()
	}
	return errors.Join(serr, w.f.Close())
}

// reader reads a file, with O_DIRECT when direct.
type reader struct {
	f      *os.File
	ctx    context.Context
	size   int64
	direct bool
	al     align
	bounce []byte
	pend   []byte // read from the file by a bounced read, not yet returned
}

func (r *reader) buffer(n int) []byte {
	if len(r.bounce) < n {
		r.bounce = alignedBuf(n, r.al)
	}
	return r.bounce[:n]
}

func (r *reader) Read(b []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	if len(r.pend) > 0 {
		n := copy(b, r.pend)
		r.pend = r.pend[n:]
		return n, nil
	}
	if !r.direct || aligned(b, r.al) || len(b) == 0 {
		return r.f.Read(b)
	}
	buf := r.buffer(roundUp(len(b), r.al.offset))
	k, err := r.f.Read(buf)
	n := copy(b, buf[:k])
	r.pend = buf[n:k]
	if n > 0 && errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}

func (r *reader) ReadAt(b []byte, off int64) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	if !r.direct || len(b) == 0 || aligned(b, r.al) && off%int64(r.al.offset) == 0 {
		return r.f.ReadAt(b, off)
	}
	start := off - off%int64(r.al.offset)
	end := int64(roundUp(int(off-start)+len(b), r.al.offset)) + start
	buf := r.buffer(int(end - start))
	k, err := r.f.ReadAt(buf, start)
	skip := int(off - start)
	if k <= skip {
		if err == nil {
			err = io.EOF
		}
		return 0, err
	}
	n := copy(b, buf[skip:k])
	if n < len(b) {
		if err == nil {
			err = io.EOF
		}
		return n, err
	}
	return n, nil
}

func (r *reader) Close() error { return r.f.Close() }
func (r *reader) Size() int64  { return r.size }
