package measure

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// HDRLog writes one series' HdrHistogram interval log in the format of
// Java's HistogramLogWriter as YCSB uses it (hdrhistogram.fileoutput=true):
// a "#[Logging for: NAME]" comment, the log format version (1.3), the start
// time, the legend, then one "start,length,max,histogram" line per interval
// with times in seconds relative to the start, the maximum in seconds
// (µs / 10^6) and the histogram in compressed base64 form. hdrhistogram-go's
// HistogramLogReader and Java's HistogramLogReader read it.
//
// hdrhistogram-go's own HistogramLogWriter is not used because its lines
// differ from Java's: six decimals instead of three, and the start time in
// whole seconds.
//
// An HDRLog is not safe for concurrent use.
type HDRLog struct {
	w    io.Writer
	base time.Time
}

// NewHDRLog writes the log header for series name, with start as the log's
// start and base time, and returns the log.
func NewHDRLog(w io.Writer, name string, start time.Time) (*HDRLog, error) {
	ms := start.UnixMilli()
	header := "#[Logging for: " + name + "]\n" +
		"#[Histogram log format version 1.3]\n" +
		"#[StartTime: " + formatFixed3(float64(ms)/1000) + " (seconds since epoch), " +
		start.Format("Mon Jan 02 15:04:05 MST 2006") + "]\n" +
		"\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
	if _, err := io.WriteString(w, header); err != nil {
		return nil, fmt.Errorf("write hdr log header for %q: %w", name, err)
	}
	return &HDRLog{w: w, base: time.UnixMilli(ms)}, nil
}

// WriteInterval appends the interval start..end with histogram h (µs); a
// nil h is written as an empty histogram, as Java YCSB logs idle intervals.
func (l *HDRLog) WriteInterval(start, end time.Time, h *hdrhistogram.Histogram) error {
	if h == nil {
		h = Options{}.withDefaults().newHist()
	}
	enc, err := EncodeHistogram(h)
	if err != nil {
		return err
	}
	s := float64(start.UnixMilli()-l.base.UnixMilli()) / 1000
	e := float64(end.UnixMilli()-l.base.UnixMilli()) / 1000
	line := formatFixed3(s) + "," + formatFixed3(e-s) + "," + formatFixed3(float64(h.Max())/1e6) + "," + enc + "\n"
	if _, err := io.WriteString(l.w, line); err != nil {
		return fmt.Errorf("write hdr log interval: %w", err)
	}
	return nil
}

// formatFixed3 renders f as Java's String.format("%.3f"): the shortest
// decimal of f rounded half-up to three places.
func formatFixed3(f float64) string {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	if !ok {
		return strconv.FormatFloat(f, 'f', 3, 64) // NaN or Inf
	}
	return r.FloatString(3) // halves round away from zero
}

// HDRLogFileName is YCSB's log file name: hdrhistogram.output.path is a
// prefix, not a directory.
func HDRLogFileName(prefix, series string) string { return prefix + series + ".hdr" }

// HDRLogs keeps one [HDRLog] per series for a run. Feed it every interval
// the collector cuts; a series' log is opened when the series first appears
// and from then on gets one line per interval, empty or not.
//
// HDRLogs is not safe for concurrent use.
type HDRLogs struct {
	open func(series string) (io.WriteCloser, error)
	logs map[string]*hdrLogFile
}

type hdrLogFile struct {
	log *HDRLog
	wc  io.WriteCloser
}

// NewHDRLogs returns a log set that calls open with a series name to get
// the writer for that series' log (typically os.Create of
// HDRLogFileName(prefix, series)).
func NewHDRLogs(open func(series string) (io.WriteCloser, error)) *HDRLogs {
	return &HDRLogs{open: open, logs: make(map[string]*hdrLogFile)}
}

// Write appends iv to the log of every series seen so far (iv.Seen).
func (s *HDRLogs) Write(iv *Snapshot) error {
	for _, i := range iv.Seen {
		name := iv.Layout.Series[i]
		f, ok := s.logs[name]
		if !ok {
			wc, err := s.open(name)
			if err != nil {
				return fmt.Errorf("open hdr log for %q: %w", name, err)
			}
			l, err := NewHDRLog(wc, name, iv.Start)
			if err != nil {
				wc.Close()
				return err
			}
			f = &hdrLogFile{log: l, wc: wc}
			s.logs[name] = f
		}
		if err := f.log.WriteInterval(iv.Start, iv.End, iv.Series[i].Hist); err != nil {
			return fmt.Errorf("series %q: %w", name, err)
		}
	}
	return nil
}

// Close closes every log opened so far.
func (s *HDRLogs) Close() error {
	var errs []error
	for name, f := range s.logs {
		if err := f.wc.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close hdr log for %q: %w", name, err))
		}
	}
	s.logs = make(map[string]*hdrLogFile)
	return errors.Join(errs...)
}
