package saturation

import (
	"testing"
	"testing/fstest"
)

func TestCgroupQuota(t *testing.T) {
	const v2mount = "30 22 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
	const v1mount = "25 22 0:21 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:9 - cgroup cgroup rw,cpu,cpuacct\n" +
		"26 22 0:22 / /sys/fs/cgroup/memory rw,nosuid shared:10 - cgroup cgroup rw,memory\n"
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	cases := []struct {
		name string
		fs   fstest.MapFS
		want float64
	}{
		{"v2 limit on the process's cgroup", fstest.MapFS{
			"proc/self/cgroup":                       file("0::/kubepods/pod1/c1\n"),
			"proc/self/mountinfo":                    file(v2mount),
			"sys/fs/cgroup/kubepods/pod1/c1/cpu.max": file("150000 100000\n"),
			"sys/fs/cgroup/kubepods/cpu.max":         file("max 100000\n"),
		}, 1.5},
		{"v2 tighter limit on an ancestor", fstest.MapFS{
			"proc/self/cgroup":          file("0::/a/b\n"),
			"proc/self/mountinfo":       file(v2mount),
			"sys/fs/cgroup/a/b/cpu.max": file("400000 100000\n"),
			"sys/fs/cgroup/a/cpu.max":   file("50000 100000\n"),
		}, 0.5},
		{"v2 no limit", fstest.MapFS{
			"proc/self/cgroup":                 file("0::/user.slice\n"),
			"proc/self/mountinfo":              file(v2mount),
			"sys/fs/cgroup/user.slice/cpu.max": file("max 100000\n"),
		}, 0},
		{"v2 namespaced: the mount root is the process's cgroup", fstest.MapFS{
			"proc/self/cgroup":      file("0::/\n"),
			"proc/self/mountinfo":   file("30 22 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"),
			"sys/fs/cgroup/cpu.max": file("200000 100000\n"),
		}, 2},
		{"v1 quota", fstest.MapFS{
			"proc/self/cgroup":    file("5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n"),
			"proc/self/mountinfo": file(v1mount),
			"sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us":  file("33333\n"),
			"sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us": file("100000\n"),
			"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us":             file("-1\n"),
			"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us":            file("100000\n"),
		}, 0.33},
		{"v1 unlimited (this machine)", fstest.MapFS{
			"proc/self/cgroup":                    file("1:cpu:/\n"),
			"proc/self/mountinfo":                 file("25 22 0:21 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"),
			"sys/fs/cgroup/cpu/cpu.cfs_quota_us":  file("-1\n"),
			"sys/fs/cgroup/cpu/cpu.cfs_period_us": file("100000\n"),
		}, 0},
		{"no cgroup files", fstest.MapFS{}, 0},
	}
	for _, c := range cases {
		if got := cgroupQuotaFS(c.fs); got != c.want {
			t.Errorf("%s: cgroupQuotaFS = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestParseMountinfoEscapes(t *testing.T) {
	m := parseMountinfo(`31 22 0:27 / /mnt/my\040cgroups rw - cgroup2 cgroup2 rw` + "\n")
	if len(m) != 1 || m[0].point != "/mnt/my cgroups" || m[0].fstype != "cgroup2" {
		t.Errorf("parseMountinfo = %+v", m)
	}
}
