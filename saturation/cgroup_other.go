//go:build !linux

package saturation

// cgroupQuota: cgroups are Linux-only.
func cgroupQuota() float64 { return 0 }
