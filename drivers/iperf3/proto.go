package iperf3

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// iperf3's test states, sent as one signed byte on the control connection.
const (
	testStart       int8 = 1
	testRunning     int8 = 2
	testEnd         int8 = 4
	paramExchange   int8 = 9
	createStreams   int8 = 10
	serverTerminate int8 = 11
	clientTerminate int8 = 12
	exchangeResults int8 = 13
	displayResults  int8 = 14
	iperfDone       int8 = 16
	accessDenied    int8 = -1
	serverError     int8 = -2
)

// iperf3's error numbers used here (i_errno).
const (
	ieUnimp       = 13  // "an option you are trying to set is not implemented yet"
	ieNumStreams  = 6   // too many streams
	ieRecvParams  = 114 // parameters could not be read
	maxStreams    = 128
	cookieSize    = 37 // an ASCII id and a NUL
	maxParamsJSON = 8 * 1024
	// DefaultPort is iperf3's.
	DefaultPort = 5201
	// DefaultBlockSize is iperf3's TCP block size.
	DefaultBlockSize = 128 * 1024
)

func stateName(s int8) string {
	switch s {
	case testStart:
		return "TEST_START"
	case testRunning:
		return "TEST_RUNNING"
	case testEnd:
		return "TEST_END"
	case paramExchange:
		return "PARAM_EXCHANGE"
	case createStreams:
		return "CREATE_STREAMS"
	case serverTerminate:
		return "SERVER_TERMINATE"
	case clientTerminate:
		return "CLIENT_TERMINATE"
	case exchangeResults:
		return "EXCHANGE_RESULTS"
	case displayResults:
		return "DISPLAY_RESULTS"
	case iperfDone:
		return "IPERF_DONE"
	case accessDenied:
		return "ACCESS_DENIED"
	case serverError:
		return "SERVER_ERROR"
	}
	return fmt.Sprintf("state %d", s)
}

// cookieChars are iperf3's: base32's alphabet, lower case.
const cookieChars = "abcdefghijklmnopqrstuvwxyz234567"

func newCookie() [cookieSize]byte {
	var c [cookieSize]byte
	var r [cookieSize - 1]byte
	rand.Read(r[:])
	for i, b := range r {
		c[i] = cookieChars[int(b)%len(cookieChars)]
	}
	return c
}

func writeState(c net.Conn, s int8) error {
	_, err := c.Write([]byte{byte(s)})
	return err
}

func readState(c net.Conn) (int8, error) {
	var b [1]byte
	if _, err := io.ReadFull(c, b[:]); err != nil {
		return 0, err
	}
	return int8(b[0]), nil
}

// writeJSON sends v as iperf3 does: a 4-byte big-endian length, then the
// JSON text.
func writeJSON(c net.Conn, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	msg := make([]byte, 4+len(b))
	binary.BigEndian.PutUint32(msg, uint32(len(b)))
	copy(msg[4:], b)
	_, err = c.Write(msg)
	return err
}

func readJSON(c net.Conn, max int, v any) error {
	var n [4]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		return err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size == 0 || max > 0 && int(size) > max {
		return fmt.Errorf("JSON message of %d bytes (at most %d)", size, max)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(c, b); err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// params are the client's test parameters (iperf3's send_parameters).
type params struct {
	TCP           bool    `json:"tcp,omitempty"`
	UDP           bool    `json:"udp,omitempty"`
	SCTP          bool    `json:"sctp,omitempty"`
	Omit          int     `json:"omit"`
	Time          int     `json:"time"`
	Num           int64   `json:"num"`
	Blockcount    int64   `json:"blockcount"`
	Parallel      int     `json:"parallel"`
	Reverse       bool    `json:"reverse,omitempty"`
	Bidirectional bool    `json:"bidirectional,omitempty"`
	Window        int     `json:"window,omitempty"`
	Len           int     `json:"len,omitempty"`
	Bandwidth     float64 `json:"bandwidth,omitempty"`
	PacingTimer   int     `json:"pacing_timer,omitempty"`
	ClientVersion string  `json:"client_version,omitempty"`
}

// results are one end's counts (iperf3's send_results).
type results struct {
	CPUTotal             float64        `json:"cpu_util_total"`
	CPUUser              float64        `json:"cpu_util_user"`
	CPUSystem            float64        `json:"cpu_util_system"`
	SenderHasRetransmits int            `json:"sender_has_retransmits"`
	Congestion           string         `json:"congestion_used,omitempty"`
	Streams              []streamResult `json:"streams"`
}

type streamResult struct {
	ID             int     `json:"id"`
	Bytes          int64   `json:"bytes"`
	Retransmits    int64   `json:"retransmits"`
	Jitter         float64 `json:"jitter"`
	Errors         int64   `json:"errors"`
	OmittedErrors  int64   `json:"omitted_errors"`
	Packets        int64   `json:"packets"`
	OmittedPackets int64   `json:"omitted_packets"`
	StartTime      float64 `json:"start_time"`
	EndTime        float64 `json:"end_time"`
}

// peerResults is results as a peer sends them: iperf3 writes its numbers
// as JSON doubles (and -1 as 2^64-1 in some versions), so they are read
// as floats.
type peerResults struct {
	CPUTotal             float64 `json:"cpu_util_total"`
	CPUUser              float64 `json:"cpu_util_user"`
	CPUSystem            float64 `json:"cpu_util_system"`
	SenderHasRetransmits float64 `json:"sender_has_retransmits"`
	Streams              []struct {
		ID          float64 `json:"id"`
		Bytes       float64 `json:"bytes"`
		Retransmits float64 `json:"retransmits"`
		StartTime   float64 `json:"start_time"`
		EndTime     float64 `json:"end_time"`
	} `json:"streams"`
}

// streams returns the peer's per-stream counts; an unknown retransmission
// count (-1, or its unsigned form) is -1.
func (p peerResults) streams() []streamResult {
	var out []streamResult
	for _, s := range p.Streams {
		r := int64(-1)
		if s.Retransmits >= 0 && s.Retransmits < 1<<62 {
			r = int64(s.Retransmits)
		}
		out = append(out, streamResult{ID: int(s.ID), Bytes: int64(s.Bytes), Retransmits: r, StartTime: s.StartTime, EndTime: s.EndTime})
	}
	return out
}

// streamID is iperf3's numbering of the i-th stream (from 0): 1, 3, 4, 5,
// ... (iperf_add_stream counts from 2 after the first).
func streamID(i int) int {
	if i == 0 {
		return 1
	}
	return i + 2
}

// ServerError is the error a peer reported with SERVER_ERROR, or a refusal.
type ServerError struct {
	State  int8
	Errno  int32 // iperf3's i_errno
	Syserr int32 // errno
}

func (e *ServerError) Error() string {
	switch e.State {
	case accessDenied:
		return "the server is busy running a test (ACCESS_DENIED); try again later"
	case serverTerminate:
		return "the server was stopped during the test (SERVER_TERMINATE)"
	case serverError:
		msg := fmt.Sprintf("the server reported an error (iperf3 error %d", e.Errno)
		switch e.Errno {
		case ieUnimp:
			msg += ": an option is not implemented"
		case ieNumStreams:
			msg += ": too many streams"
		}
		if e.Syserr > 0 {
			msg += fmt.Sprintf(", errno %d", e.Syserr)
		}
		return msg + ")"
	}
	return "unexpected " + stateName(e.State)
}

// errEnded marks the end of the test on a stream; Send and Receive turn it
// into io.EOF.
var errEnded = errors.New("iperf3: the test has ended")

// ctrlTimeout bounds each control-connection exchange outside the test.
const ctrlTimeout = 30 * time.Second
