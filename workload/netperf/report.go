package netperf

import (
	"fmt"
	"strings"
	"time"
	"unicode"
)

// iperf3's unit_snprintf: format 'a' (adaptive bits, base 1000; iperf3's
// default for rates), 'A' (adaptive bytes, base 1024; for transfers),
// k/m/g/t bits, K/M/G/T bytes.

var (
	byteLabels = [...]string{"Byte", "KByte", "MByte", "GByte", "TByte"}
	bitLabels  = [...]string{"bit", "Kbit", "Mbit", "Gbit", "Tbit"}
)

// ValidFormat reports whether f is one of iperf3's -f formats.
func ValidFormat(f byte) bool { return strings.IndexByte("aAbBkKmMgGtT", f) >= 0 }

// Unit renders bytes in iperf3's format f, as "4.25 GByte" or "36.5 Gbit"
// (the lines add "s" and "s/sec").
func Unit(bytes float64, f byte) string {
	v := bytes
	upper := unicode.IsUpper(rune(f))
	if !upper {
		v *= 8
	}
	conv := 0
	switch unicode.ToUpper(rune(f)) {
	case 'B':
	case 'K':
		conv = 1
	case 'M':
		conv = 2
	case 'G':
		conv = 3
	case 'T':
		conv = 4
	default:
		base := 1000.0
		if upper {
			base = 1024
		}
		for t := v; t >= base && conv < 4; conv++ {
			t /= base
		}
	}
	label := bitLabels[conv]
	div := 1.0
	for i := 0; i < conv; i++ {
		if upper {
			div *= 1024
		} else {
			div *= 1000
		}
	}
	if upper {
		label = byteLabels[conv]
	}
	v /= div
	switch {
	case v < 9.995:
		return fmt.Sprintf("%4.2f %s", v, label)
	case v < 99.95:
		return fmt.Sprintf("%4.1f %s", v, label)
	}
	return fmt.Sprintf("%4.0f %s", v, label)
}

// iperf3's line formats (iperf_locale.c).
const (
	headerBW         = "[ ID] Interval           Transfer     Bitrate"
	headerBWRetr     = "[ ID] Interval           Transfer     Bitrate         Retr"
	headerBWRetrCwnd = "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd"
	separator        = "- - - - - - - - - - - - - - - - - - - - - - - - -"
	fmtBW            = "[%3d] %6.2f-%-6.2f sec  %ss  %ss/sec                  %s"
	fmtBWRetr        = "[%3d] %6.2f-%-6.2f sec  %ss  %ss/sec  %3d             %s"
	fmtBWRetrCwnd    = "[%3d] %6.2f-%-6.2f sec  %ss  %ss/sec  %3d   %ss       %s"
	fmtSumBW         = "[SUM] %6.2f-%-6.2f sec  %ss  %ss/sec                  %s"
	fmtSumBWRetr     = "[SUM] %6.2f-%-6.2f sec  %ss  %ss/sec  %3d             %s"
	fmtConnected     = "[%3d] local %s port %d connected to %s port %d"
	fmtConnecting    = "Connecting to host %s, port %d"
	fmtReverse       = "Reverse mode, remote host %s is sending"
	fmtAccepted      = "Accepted connection from %s, port %d"
	fmtServerHeader  = "Server listening on %d (test #%d)"
	serverRule       = "-----------------------------------------------------------"
	doneLine         = "iperf Done."
)

// Header lines, for the CLI.
const (
	Separator  = separator
	ServerRule = serverRule
	Done       = doneLine
)

// Connecting is the client's first line.
func Connecting(host string, port int) string { return fmt.Sprintf(fmtConnecting, host, port) }

// ReverseMode is the client's line for a reverse test.
func ReverseMode(host string) string { return fmt.Sprintf(fmtReverse, host) }

// Accepted is the server's line for a client.
func Accepted(host string, port int) string { return fmt.Sprintf(fmtAccepted, host, port) }

// Listening is the server's banner line for test number n.
func Listening(port, n int) string { return fmt.Sprintf(fmtServerHeader, port, n) }

// IntervalStream is one stream over one interval (or the sum of them).
type IntervalStream struct {
	Socket      int     `json:"socket"`
	Start       float64 `json:"start"`
	End         float64 `json:"end"`
	Seconds     float64 `json:"seconds"`
	Bytes       int64   `json:"bytes"`
	BitsPerSec  float64 `json:"bits_per_second"`
	Retransmits int64   `json:"retransmits,omitempty"`
	Cwnd        int64   `json:"snd_cwnd,omitempty"`
	Omitted     bool    `json:"omitted"`
	Sender      bool    `json:"sender"`
	hasTCP      bool
}

// Interval is one interval of the test: every stream and their sum.
type Interval struct {
	Streams []IntervalStream `json:"streams"`
	Sum     IntervalStream   `json:"sum"`
}

// Ticker cuts intervals from a running job's counters.
type Ticker struct {
	j     *Job
	lastB []int64
	lastR []int64
	lastT float64
	n     int
}

// LastEnd is where the last interval ended (seconds since the start).
func (tk *Ticker) LastEnd() float64 { return tk.lastT }

// N is the number of intervals cut so far.
func (tk *Ticker) N() int { return tk.n }

// NewTicker returns a ticker whose first interval starts at the test's
// start.
func (j *Job) NewTicker() *Ticker {
	return &Ticker{j: j, lastB: make([]int64, len(j.streams)), lastR: make([]int64, len(j.streams))}
}

// Tick ends the current interval at now and returns it; ok is false
// before the test has started or when the interval is empty in time.
func (tk *Ticker) Tick(now time.Time) (Interval, bool) {
	t0 := tk.j.StartTime()
	if t0.IsZero() {
		return Interval{}, false
	}
	return tk.TickAt(now.Sub(t0).Seconds())
}

// TickAt ends the current interval at et seconds after the test's start
// (the last one: when the streams ended).
func (tk *Ticker) TickAt(et float64) (Interval, bool) {
	if tk.j.StartTime().IsZero() || et <= tk.lastT+1e-3 {
		return Interval{}, false
	}
	iv := Interval{Sum: IntervalStream{Socket: -1, Start: tk.lastT, End: et, Seconds: et - tk.lastT}}
	for i, s := range tk.j.streams {
		st := s.State()
		b := s.Bytes()
		is := IntervalStream{Socket: st.Info.Socket, Start: tk.lastT, End: et, Seconds: et - tk.lastT, Bytes: b - tk.lastB[i], Sender: st.Sender}
		is.BitsPerSec = float64(is.Bytes) * 8 / is.Seconds
		if r, c, ok := s.TCP(); ok && st.Sender {
			is.Retransmits, is.Cwnd, is.hasTCP = r-tk.lastR[i], c, true
			tk.lastR[i] = r
			iv.Sum.Retransmits += is.Retransmits
			iv.Sum.hasTCP = true
		}
		tk.lastB[i] = b
		iv.Sum.Bytes += is.Bytes
		iv.Sum.Sender = st.Sender
		iv.Streams = append(iv.Streams, is)
	}
	iv.Sum.BitsPerSec = float64(iv.Sum.Bytes) * 8 / iv.Sum.Seconds
	tk.lastT = et
	tk.n++
	return iv, true
}

// Lines renders an interval as iperf3 prints it; first is the test's
// first interval (with the column header).
func (iv Interval) Lines(first bool, f byte) []string {
	var out []string
	tcp := len(iv.Streams) > 0 && iv.Streams[0].hasTCP
	if first {
		if tcp {
			out = append(out, headerBWRetrCwnd)
		} else {
			out = append(out, headerBW)
		}
	} else if len(iv.Streams) > 1 {
		out = append(out, separator)
	}
	for _, s := range iv.Streams {
		tr, br := Unit(float64(s.Bytes), 'A'), Unit(s.BitsPerSec/8, f)
		if s.hasTCP {
			out = append(out, fmt.Sprintf(fmtBWRetrCwnd, s.Socket, s.Start, s.End, tr, br, s.Retransmits, Unit(float64(s.Cwnd), 'A'), ""))
		} else {
			out = append(out, fmt.Sprintf(fmtBW, s.Socket, s.Start, s.End, tr, br, ""))
		}
	}
	if len(iv.Streams) > 1 {
		s := iv.Sum
		tr, br := Unit(float64(s.Bytes), 'A'), Unit(s.BitsPerSec/8, f)
		if s.hasTCP {
			out = append(out, fmt.Sprintf(fmtSumBWRetr, s.Start, s.End, tr, br, s.Retransmits, ""))
		} else {
			out = append(out, fmt.Sprintf(fmtSumBW, s.Start, s.End, tr, br, ""))
		}
	}
	return out
}

// Side is one end's total for a stream or for the sum.
type Side struct {
	Socket      int     `json:"socket"`
	Start       float64 `json:"start"`
	End         float64 `json:"end"`
	Seconds     float64 `json:"seconds"`
	Bytes       int64   `json:"bytes"`
	BitsPerSec  float64 `json:"bits_per_second"`
	Retransmits int64   `json:"retransmits,omitempty"`
	Sender      bool    `json:"sender"`
	Known       bool    `json:"-"` // the figures were had (the peer reported them)
	hasRetr     bool
}

func side(socket int, b int64, secs float64, retr int64, sender, known bool) Side {
	s := Side{Socket: socket, End: secs, Seconds: secs, Bytes: b, Retransmits: max(retr, 0), Sender: sender, Known: known, hasRetr: retr >= 0}
	if secs > 0 {
		s.BitsPerSec = float64(b) * 8 / secs
	}
	return s
}

// SummaryStream is one stream's end-of-test figures: the sending end's
// and the receiving end's.
type SummaryStream struct {
	Sender   Side `json:"sender"`
	Receiver Side `json:"receiver"`
}

// Summary is the end of the test, as iperf3 prints it.
type Summary struct {
	Streams     []SummaryStream `json:"streams"`
	SumSent     Side            `json:"sum_sent"`
	SumReceived Side            `json:"sum_received"`
	Failed      []string        `json:"-"` // streams that failed, and why
	LocalSender bool            `json:"-"` // this end sent
}

// Summary sums the test up once the run has returned.
func (j *Job) Summary() Summary {
	var s Summary
	for _, st := range j.streams {
		x := st.State()
		if x.Err != nil {
			s.Failed = append(s.Failed, fmt.Sprintf("stream %d: %v", x.Info.ID, x.Err))
		}
		if !x.Started {
			continue
		}
		r := x.Result
		loc := side(x.Info.Socket, r.Local.Bytes, r.Local.Seconds, r.Local.Retransmits, x.Sender, true)
		if !x.Done {
			loc = side(x.Info.Socket, st.Bytes(), time.Since(j.StartTime()).Seconds(), -1, x.Sender, true)
		}
		peer := side(x.Info.Socket, r.Peer.Bytes, r.Peer.Seconds, r.Peer.Retransmits, x.Sender, r.PeerReported)
		ss := SummaryStream{Sender: loc, Receiver: peer}
		if !x.Sender {
			ss = SummaryStream{Sender: peer, Receiver: loc}
		}
		// iperf3's JSON: "sender" says whether this end sent the stream.
		ss.Sender.Sender, ss.Receiver.Sender = x.Sender, x.Sender
		s.LocalSender = x.Sender
		s.Streams = append(s.Streams, ss)
	}
	for i, ss := range s.Streams {
		if i == 0 {
			s.SumSent = Side{Seconds: ss.Sender.Seconds, End: ss.Sender.Seconds, Sender: s.LocalSender, Known: ss.Sender.Known, Socket: -1, hasRetr: ss.Sender.hasRetr}
			s.SumReceived = Side{Seconds: ss.Receiver.Seconds, End: ss.Receiver.Seconds, Sender: s.LocalSender, Known: ss.Receiver.Known, Socket: -1}
		}
		s.SumSent.Bytes += ss.Sender.Bytes
		s.SumSent.Retransmits += ss.Sender.Retransmits
		s.SumReceived.Bytes += ss.Receiver.Bytes
	}
	if s.SumSent.Seconds > 0 {
		s.SumSent.BitsPerSec = float64(s.SumSent.Bytes) * 8 / s.SumSent.Seconds
	}
	if s.SumReceived.Seconds > 0 {
		s.SumReceived.BitsPerSec = float64(s.SumReceived.Bytes) * 8 / s.SumReceived.Seconds
	}
	return s
}

// Lines renders the summary as iperf3 does after its separator: per
// stream a sender and a receiver line, then [SUM] lines with more than
// one stream. A side the peer did not report is left out.
func (s Summary) Lines(f byte) []string {
	out := []string{separator}
	retr := len(s.Streams) > 0 && s.Streams[0].Sender.hasRetr
	if retr {
		out = append(out, headerBWRetr)
	} else {
		out = append(out, headerBW)
	}
	line := func(sd Side, role string, sum bool) {
		if !sd.Known {
			out = append(out, fmt.Sprintf("[%3s] (%s statistics not available)", idOf(sd, sum), role))
			return
		}
		tr, br := Unit(float64(sd.Bytes), 'A'), Unit(sd.BitsPerSec/8, f)
		switch {
		case sum && role == "sender" && sd.hasRetr:
			out = append(out, fmt.Sprintf(fmtSumBWRetr, 0.0, sd.Seconds, tr, br, sd.Retransmits, role))
		case sum:
			out = append(out, fmt.Sprintf(fmtSumBW, 0.0, sd.Seconds, tr, br, role))
		case role == "sender" && sd.hasRetr:
			out = append(out, fmt.Sprintf(fmtBWRetr, sd.Socket, 0.0, sd.Seconds, tr, br, sd.Retransmits, role))
		default:
			out = append(out, fmt.Sprintf(fmtBW, sd.Socket, 0.0, sd.Seconds, tr, br, role))
		}
	}
	for _, ss := range s.Streams {
		line(ss.Sender, "sender", false)
		line(ss.Receiver, "receiver", false)
	}
	if len(s.Streams) > 1 {
		line(s.SumSent, "sender", true)
		line(s.SumReceived, "receiver", true)
	}
	return out
}

func idOf(sd Side, sum bool) string {
	if sum {
		return "SUM"
	}
	return fmt.Sprint(sd.Socket)
}

// ConnectedLine is iperf3's line for a stream that connected.
func ConnectedLine(socket int, localHost string, localPort int, remoteHost string, remotePort int) string {
	return fmt.Sprintf(fmtConnected, socket, localHost, localPort, remoteHost, remotePort)
}
