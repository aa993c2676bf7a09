package netperf

import "time"

// JSONDoc is iperf3's -J document, with the fields tools read most
// (start.connected, start.test_start, intervals[].streams/sum,
// end.streams[].sender/receiver, end.sum_sent, end.sum_received,
// end.cpu_utilization_percent).
type JSONDoc struct {
	Start     JSONStart  `json:"start"`
	Intervals []Interval `json:"intervals"`
	End       JSONEnd    `json:"end"`
	Error     string     `json:"error,omitempty"`
}

// JSONStart is iperf3's "start" object.
type JSONStart struct {
	Connected    []JSONConnected `json:"connected"`
	Version      string          `json:"version"`
	Timestamp    JSONTime        `json:"timestamp"`
	ConnectingTo *JSONHost       `json:"connecting_to,omitempty"`
	AcceptedFrom *JSONHost       `json:"accepted_connection,omitempty"`
	TestStart    JSONTestStart   `json:"test_start"`
}

// JSONConnected is one stream's addresses.
type JSONConnected struct {
	Socket     int    `json:"socket"`
	LocalHost  string `json:"local_host"`
	LocalPort  int    `json:"local_port"`
	RemoteHost string `json:"remote_host"`
	RemotePort int    `json:"remote_port"`
}

// JSONTime is iperf3's timestamp.
type JSONTime struct {
	Time     string `json:"time"`
	TimeSecs int64  `json:"timesecs"`
}

// NewJSONTime is t as iperf3 writes it.
func NewJSONTime(t time.Time) JSONTime {
	return JSONTime{Time: t.UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT"), TimeSecs: t.Unix()}
}

// JSONHost is a host and port.
type JSONHost struct {
	Host string `json:"host"`
	Port int    `json:"port"`
}

// JSONTestStart is the test's parameters.
type JSONTestStart struct {
	Protocol   string `json:"protocol"`
	NumStreams int    `json:"num_streams"`
	BlkSize    int    `json:"blksize"`
	Omit       int    `json:"omit"`
	Duration   int    `json:"duration"`
	Bytes      int64  `json:"bytes"`
	Blocks     int64  `json:"blocks"`
	Reverse    int    `json:"reverse"`
}

// JSONEnd is iperf3's "end" object.
type JSONEnd struct {
	Streams     []SummaryStream `json:"streams"`
	SumSent     Side            `json:"sum_sent"`
	SumReceived Side            `json:"sum_received"`
	CPU         *JSONCPU        `json:"cpu_utilization_percent,omitempty"`
}

// JSONCPU is the CPU use of both ends, in percent of the test's time.
type JSONCPU struct {
	HostTotal    float64 `json:"host_total"`
	HostUser     float64 `json:"host_user"`
	HostSystem   float64 `json:"host_system"`
	RemoteTotal  float64 `json:"remote_total"`
	RemoteUser   float64 `json:"remote_user"`
	RemoteSystem float64 `json:"remote_system"`
}

// TestStart is the test's "test_start" object.
func (c Config) TestStart() JSONTestStart {
	r := 0
	if c.Reverse {
		r = 1
	}
	return JSONTestStart{Protocol: "TCP", NumStreams: c.Streams, BlkSize: c.Len, Duration: int(c.Duration / time.Second), Reverse: r}
}
