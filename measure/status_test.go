package measure

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestFormatRemaining(t *testing.T) {
	tests := []struct {
		sec  int64
		want string
	}{
		{0, "0 seconds "}, {1, "1 seconds "}, {59, "59 seconds "}, {60, "1 minute "},
		{61, "1 minute "}, {120, "2 minutes "}, {3600, "1 hour "}, {3661, "1 hour 1 minute "},
		{7322, "2 hours 2 minutes "}, {86399, "23 hours 59 minutes "}, {86400, "1 day "},
		{86460, "1 day "}, {90061, "1 day 1 hour "}, {2 * 86400, "2 days "},
		{math.MaxInt64, "106751991167300 days 15 hours "},
	}
	for _, tt := range tests {
		if got := formatRemaining(tt.sec); got != tt.want {
			t.Errorf("formatRemaining(%d) = %q, want %q", tt.sec, got, tt.want)
		}
	}
}

func TestFormatStatus(t *testing.T) {
	c := NewCollector(testLayout, Options{Start: t0})
	r := c.NewRecorder()
	for _, us := range []int64{100, 200, 300} {
		r.Record(0, time.Duration(us)*time.Microsecond)
		r.Count(0, 0)
	}
	r.Record(1, 5*time.Millisecond)
	c.Cut(t0.Add(10 * time.Second))
	for _, us := range []int64{100, 200, 300} {
		r.Record(0, time.Duration(us)*time.Microsecond)
	}
	iv := c.Cut(t0.Add(20 * time.Second)) // UPDATE seen before, idle now

	readHdr := "[READ: Count=3, Max=300, Min=100, Avg=200, 50=200, 90=300, 99=300, 99.9=300, 99.99=300] "
	updIdle := "[UPDATE: Count=0, Max=0, Min=0, Avg=0, 50=0, 90=0, 99=0, 99.9=0, 99.99=0] "
	now := time.Date(2026, 1, 2, 10, 11, 12, 345678901, time.UTC)
	tests := []struct {
		name string
		st   StatusLine
		iv   *Snapshot
		want string
	}{
		{
			name: "first line at t=0",
			st:   StatusLine{Now: now, Remaining: 1000},
			want: "2026-01-02 10:11:12:345 0 sec: 0 operations; est completion in 0 seconds ",
		},
		{
			name: "no progress yet",
			st:   StatusLine{Now: now, Elapsed: 10 * time.Second, Interval: 10 * time.Second, Remaining: 1000},
			want: "2026-01-02 10:11:12:345 10 sec: 0 operations; est completion in 106751991167300 days 15 hours ",
		},
		{
			name: "running with label and summaries",
			st: StatusLine{Label: "run-a ", Now: now, Elapsed: 20*time.Second + 999*time.Millisecond,
				Ops: 99812, PrevOps: 49600, Interval: 10 * time.Second, Remaining: 900188},
			iv: iv,
			// cur = 1000*50212/10000 = 5021.2; est = ceil(900188 / (1000*99812/20999)) = 190 s
			want: "run-a 2026-01-02 10:11:12:345 20 sec: 99812 operations; 5021.2 current ops/sec; est completion in 3 minutes " + readHdr + updIdle,
		},
		{
			name: "unlimited run, time series summaries",
			st:   StatusLine{Now: now, Elapsed: 3 * time.Second, Ops: 7, PrevOps: 4, Interval: 3 * time.Second, Type: TimeSeries},
			iv:   iv,
			want: "2026-01-02 10:11:12:345 3 sec: 7 operations; 1 current ops/sec; [READ AverageLatency(us)=200]  ",
		},
		{
			name: "two-decimal rounding",
			st:   StatusLine{Now: now, Elapsed: 3 * time.Second, Ops: 10, Interval: 3 * time.Second},
			want: "2026-01-02 10:11:12:345 3 sec: 10 operations; 3.33 current ops/sec; ",
		},
	}
	for _, tt := range tests {
		if got := FormatStatus(tt.st, tt.iv); got != tt.want {
			t.Errorf("%s: FormatStatus(%+v)\n got %q\nwant %q", tt.name, tt.st, got, tt.want)
		}
	}
	var b strings.Builder
	if err := WriteStatus(&b, tests[0].st, nil); err != nil || b.String() != tests[0].want+"\n" {
		t.Errorf("WriteStatus wrote %q, %v", b.String(), err)
	}
}
