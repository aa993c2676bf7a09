//go:build linux

package saturation

import "os"

// cgroupQuota is this process's cgroup CPU quota in CPUs (0 = none).
func cgroupQuota() float64 { return cgroupQuotaFS(os.DirFS("/")) }
