//go:build unix

package secure

import (
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup puts cmd (bash running a testenv script) in its own process group, so
// that a cancelled context kills the script and the JVM it runs, never the servers
// (each runs in its own session).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 5 * time.Second
}
