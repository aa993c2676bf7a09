package measure

import _ "unsafe" // for go:linkname

// procPin returns the id of the P (the scheduler's processor) the calling
// goroutine runs on and keeps the goroutine on it until procUnpin. The
// runtime keeps this linkname target for outside packages (go.dev/issue/67401).
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// procID returns the id of the P the calling goroutine is running on now
// (it may move to another one right after).
func procID() int {
	id := procPin()
	procUnpin()
	return id
}
