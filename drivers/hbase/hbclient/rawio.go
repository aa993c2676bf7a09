//go:build linux

package hbclient

import (
	"io"
	"net"
	"syscall"
	"unsafe"
)

// rawIO reads and writes a TCP connection's socket with raw read(2) and
// write(2) calls through its syscall.RawConn, instead of net.Conn's Read
// and Write. The socket is non-blocking (the net package made it so): a
// call never blocks, and when it would (EAGAIN) the RawConn parks the
// goroutine on the poller exactly as net.Conn does, deadlines and Close
// included.
//
// Why: net.Conn's calls enter the runtime's syscall state, and the first
// such call after the process was idle wakes the runtime's monitor thread
// (sysmon), which then polls every 20 µs for a millisecond. An RPC client
// waiting on a server goes idle and wakes up thousands of times a second,
// so on one CPU that thread's wake-ups and sleeps cost about a fifth of the
// client's CPU time (perf, workload C at 16 threads). Raw calls skip the
// syscall state: they cannot block, so there is nothing for sysmon to hand
// over.
type rawIO struct {
	rc syscall.RawConn

	// the operation in progress; read and write each run in one goroutine
	// at a time (the reader loop, the writer role), so each has its own.
	rbuf  []byte
	rn    int
	rerr  error
	rfn   func(fd uintptr) bool // = r.readFd, bound once (no allocation per call)
	wbuf  []byte
	werr  error
	wfn   func(fd uintptr) bool // = r.writeFd
	wdone int
}

// newRawIO returns a rawIO for nc, or nil when nc is not a socket of the
// net package (a test's pipe, a SASL-wrapped connection).
func newRawIO(nc net.Conn) *rawIO {
	sc, ok := nc.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{rc: rc}
	r.rfn, r.wfn = r.readFd, r.writeFd
	return r
}

// Read reads into p what the socket has (at least one byte, or an error);
// io.EOF when the peer closed it.
func (r *rawIO) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.rbuf, r.rn, r.rerr = p, 0, nil
	err := r.rc.Read(r.rfn)
	n, rerr := r.rn, r.rerr
	r.rbuf, r.rerr = nil, nil
	if err == nil {
		err = rerr
	}
	if err == nil && n == 0 {
		err = io.EOF
	}
	return n, err
}

func (r *rawIO) readFd(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.rbuf[0])), uintptr(len(r.rbuf)))
		switch e {
		case 0:
			r.rn = int(n)
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait on the poller, then again
		default:
			r.rerr = &net.OpError{Op: "read", Net: "tcp", Err: e}
			return true
		}
	}
}

// write writes all of b (waiting on the poller when the socket buffer is
// full, up to the write deadline).
func (r *rawIO) write(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	r.wbuf, r.wdone, r.werr = b, 0, nil
	err := r.rc.Write(r.wfn)
	werr := r.werr
	r.wbuf, r.werr = nil, nil
	if err == nil {
		err = werr
	}
	return err
}

func (r *rawIO) writeFd(fd uintptr) bool {
	for r.wdone < len(r.wbuf) {
		rest := r.wbuf[r.wdone:]
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&rest[0])), uintptr(len(rest)))
		switch e {
		case 0:
			r.wdone += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			r.werr = &net.OpError{Op: "write", Net: "tcp", Err: e}
			return true
		}
	}
	return true
}
