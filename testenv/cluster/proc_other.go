//go:build !unix

package cluster

import (
	"os/exec"
	"time"
)

// setProcessGroup: without process groups, only the script itself is killed.
func setProcessGroup(cmd *exec.Cmd, withContext bool) { cmd.WaitDelay = 5 * time.Second }

func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
