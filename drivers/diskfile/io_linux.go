//go:build linux

package diskfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

const (
	oDirect         = unix.O_DIRECT
	directSupported = true
)

func outFlags(m Modes) int {
	f := 0
	if m.Direct {
		f |= unix.O_DIRECT
	}
	if m.Dsync {
		f |= unix.O_DSYNC
	}
	if m.Sync {
		f |= unix.O_SYNC
	}
	return f
}

// alignment asks the kernel (statx STATX_DIOALIGN) for the direct-I/O
// alignment of the regular file at p; 4096 when it does not say.
func alignment(p string) align {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, p, 0, unix.STATX_DIOALIGN, &st); err == nil &&
		st.Mask&unix.STATX_DIOALIGN != 0 && st.Dio_offset_align > 0 && st.Dio_mem_align > 0 {
		return align{mem: int(st.Dio_mem_align), offset: int(st.Dio_offset_align)}
	}
	return align{mem: 4096, offset: 4096}
}

// setDirect turns O_DIRECT on or off for the open file f.
func setDirect(f *os.File, on bool) error {
	fl, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err != nil {
		return err
	}
	if on {
		fl |= unix.O_DIRECT
	} else {
		fl &^= unix.O_DIRECT
	}
	_, err = unix.FcntlInt(f.Fd(), unix.F_SETFL, fl)
	return err
}

func fdatasync(f *os.File) error { return unix.Fdatasync(int(f.Fd())) }

func isInvalid(err error) bool { return errors.Is(err, unix.EINVAL) }
