package netperf

import "testing"

// Units as iperf3 3.12 printed them (transfers 'A', rates 'a').
func TestUnitAsIperf3(t *testing.T) {
	for _, c := range []struct {
		v    float64
		f    byte
		want string
	}{
		{1.45 * (1 << 30), 'A', "1.45 GByte"},
		{739 * (1 << 20), 'A', " 739 MByte"},
		{767 * 1024, 'A', " 767 KByte"},
		{1023 * 1024, 'A', "1023 KByte"},
		{2.25 * (1 << 20), 'A', "2.25 MByte"},
		{6.20e9 / 8, 'a', "6.20 Gbit"},
		{36.5e9 / 8, 'a', "36.5 Gbit"},
		{0, 'A', "0.00 Byte"},
		{0, 'a', "0.00 bit"},
		{12.3e9 / 8, 'g', "12.3 Gbit"},
		{12.3e9 / 8, 'm', "12300 Mbit"},
	} {
		if got := Unit(c.v, c.f); got != c.want {
			t.Errorf("Unit(%v, %c) = %q, want %q", c.v, c.f, got, c.want)
		}
	}
}

// The interval and summary lines, byte for byte as iperf3 3.12's client
// printed a 2-stream test (cat -A showed the trailing blanks).
func TestLinesAsIperf3(t *testing.T) {
	iv := Interval{Streams: []IntervalStream{
		{Socket: 5, Start: 0, End: 1, Seconds: 1, Bytes: 288 << 20, BitsPerSec: 2.40e9, Retransmits: 17, Cwnd: 1023 << 10, Sender: true, hasTCP: true},
	}}
	if got := iv.Lines(true, 'a'); got[0] != headerBWRetrCwnd ||
		got[1] != "[  5]   0.00-1.00   sec   288 MBytes  2.40 Gbits/sec   17   1023 KBytes       " {
		t.Errorf("interval lines %q", got)
	}
	sd := side(5, 739<<20, 2.0, 41, true, true)
	sd.BitsPerSec = 3.10e9
	rc := side(5, 739<<20, 2.0, -1, true, true)
	rc.BitsPerSec = 3.09e9
	s := Summary{Streams: []SummaryStream{{Sender: sd, Receiver: rc}}}
	got := s.Lines('a')
	want := []string{separator, headerBWRetr,
		"[  5]   0.00-2.00   sec   739 MBytes  3.10 Gbits/sec   41             sender",
		"[  5]   0.00-2.00   sec   739 MBytes  3.09 Gbits/sec                  receiver"}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("summary lines\n%q\nwant\n%q", got, want)
		}
	}
}
