package saturation

import (
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
)

// cgroupQuotaFS returns the CPU bandwidth limit, in CPUs, of the cgroup
// this process is in: the least quota/period of its cgroup and the
// ancestors under the mount, for cgroup v2 (cpu.max) and v1
// (cpu.cfs_quota_us, cpu.cfs_period_us), whichever are there. 0 means no
// limit or none found. fsys is the root file system ("proc/self/cgroup",
// "sys/fs/cgroup/...").
func cgroupQuotaFS(fsys fs.FS) float64 {
	cg, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0
	}
	mi, err := fs.ReadFile(fsys, "proc/self/mountinfo")
	if err != nil {
		return 0
	}
	mounts := parseMountinfo(string(mi))
	best := math.Inf(1)
	for _, line := range strings.Split(string(cg), "\n") {
		// hierarchy-ID:controller-list:cgroup-path
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		v2 := f[0] == "0" && f[1] == ""
		if !v2 && !hasWord(f[1], "cpu") {
			continue
		}
		for _, mt := range mounts {
			if v2 != (mt.fstype == "cgroup2") || !v2 && !hasWord(mt.super, "cpu") {
				continue
			}
			rel, ok := strings.CutPrefix(f[2], mt.root)
			if !ok {
				rel = ""
			}
			dir := path.Join(mt.point, rel)
			for {
				if q := dirQuota(fsys, dir, v2); q > 0 && q < best {
					best = q
				}
				if dir == mt.point || dir == "." || dir == "/" {
					break
				}
				dir = path.Dir(dir)
			}
		}
	}
	if math.IsInf(best, 1) {
		return 0
	}
	return math.Round(best*100) / 100
}

// dirQuota reads one cgroup directory's CPU limit in CPUs (0 = none).
func dirQuota(fsys fs.FS, dir string, v2 bool) float64 {
	dir = strings.TrimPrefix(dir, "/")
	if v2 {
		b, err := fs.ReadFile(fsys, path.Join(dir, "cpu.max"))
		if err != nil {
			return 0
		}
		f := strings.Fields(string(b)) // "max 100000" or "150000 100000"
		if len(f) != 2 {
			return 0
		}
		return ratio(f[0], f[1])
	}
	q, err1 := fs.ReadFile(fsys, path.Join(dir, "cpu.cfs_quota_us"))
	p, err2 := fs.ReadFile(fsys, path.Join(dir, "cpu.cfs_period_us"))
	if err1 != nil || err2 != nil {
		return 0
	}
	return ratio(strings.TrimSpace(string(q)), strings.TrimSpace(string(p)))
}

// ratio is quota/period, 0 for "max", -1 or bad numbers.
func ratio(quota, period string) float64 {
	q, err1 := strconv.ParseInt(quota, 10, 64)
	p, err2 := strconv.ParseInt(period, 10, 64)
	if err1 != nil || err2 != nil || q <= 0 || p <= 0 {
		return 0
	}
	return float64(q) / float64(p)
}

type mount struct{ root, point, fstype, super string }

// parseMountinfo reads /proc/self/mountinfo lines: "36 35 98:0 /root
// /mnt rw,noatime master:1 - cgroup cgroup rw,cpu,cpuacct".
func parseMountinfo(s string) []mount {
	var out []mount
	for _, line := range strings.Split(s, "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 {
			continue
		}
		out = append(out, mount{root: unescape(f[3]), point: unescape(f[4]), fstype: g[0], super: g[2]})
	}
	return out
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hasWord reports whether the comma-separated list has w.
func hasWord(list, w string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == w {
			return true
		}
	}
	return false
}
