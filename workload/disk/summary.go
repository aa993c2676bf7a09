package disk

import "time"

// Summary is one run: every file and their sum.
type Summary struct {
	Test      Test
	BlockSize int
	Files     []File
	Bytes     int64         // over the files, completed or not
	Wall      time.Duration // from the first file's start to the last one's end
	Failed    int           // files that did not complete
}

// Summary sums the files once the run has returned.
func (j *Job) Summary() Summary {
	s := Summary{Test: j.cfg.Test, BlockSize: j.cfg.BlockSize, Files: j.Files()}
	var first, last time.Duration
	seen := false
	for _, f := range s.Files {
		if f.Err != nil {
			s.Failed++
		}
		s.Bytes += f.Bytes
		if f.End <= 0 {
			continue
		}
		if !seen || f.Start < first {
			first = f.Start
		}
		if !seen || f.End > last {
			last = f.End
		}
		seen = true
	}
	if seen {
		s.Wall = last - first
	}
	return s
}

// MBps is the aggregate throughput in dd's MB/s (10⁶ bytes per second):
// all files' bytes over the wall time they took together.
func (s Summary) MBps() float64 {
	if s.Wall <= 0 {
		return 0
	}
	return float64(s.Bytes) / s.Wall.Seconds() / 1e6
}

// MBps is one file's throughput in MB/s (10⁶ bytes per second).
func (f File) MBps() float64 {
	if f.Time <= 0 {
		return 0
	}
	return float64(f.Bytes) / f.Time.Seconds() / 1e6
}
