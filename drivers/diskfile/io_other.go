//go:build !linux

package diskfile

import "os"

const (
	oDirect         = 0
	directSupported = false
)

func outFlags(m Modes) int {
	if m.Dsync || m.Sync {
		return os.O_SYNC
	}
	return 0
}

func alignment(string) align         { return align{mem: 1, offset: 1} }
func setDirect(*os.File, bool) error { return nil }
func fdatasync(f *os.File) error     { return f.Sync() }
func isInvalid(error) bool           { return false }
