//go:build unix

package cluster

import (
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup puts cmd (bash running fault.sh) in its own process group, so that
// killGroup ends the script and any helper JVM it runs, never the cluster's nodes
// (each runs in its own session). For a CommandContext, a cancelled context does that.
func setProcessGroup(cmd *exec.Cmd, withContext bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if withContext {
		cmd.Cancel = func() error { return killGroup(cmd) }
	}
	cmd.WaitDelay = 5 * time.Second
}

// killGroup sends SIGKILL to the process group of a started cmd.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
