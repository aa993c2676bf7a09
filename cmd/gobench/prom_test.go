package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/workload"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// scrape fetches and parses http://addr/metrics.
func scrape(t *testing.T, addr string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scrape: %v", err)
	}
	defer resp.Body.Close()
	var p expfmt.TextParser
	mf, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return mf
}

// metric returns the value of the counter, gauge or histogram count of
// family name whose labels include want (label=value pairs).
func metric(mf map[string]*dto.MetricFamily, name string, want ...string) (float64, bool) {
	f := mf[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		for i := 0; i+1 < len(want); i += 2 {
			found := false
			for _, l := range m.Label {
				if l.GetName() == want[i] && l.GetValue() == want[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

// A run against the basic driver feeds the exporter from its intervals;
// /metrics scraped over loopback at the end has the final report's counts.
func TestPrometheusMatchesFinalReport(t *testing.T) {
	dashboard, err := os.ReadFile("../../deploy/grafana/gobench-dashboard.json")
	if err != nil {
		t.Fatalf("dashboard: %v", err)
	}
	t.Chdir(t.TempDir())
	plan, _, err := prepareBench([]string{"-db", "basic", "-w", "workloada", "-p", "operationcount=0", "-p", "maxexecutiontime=2",
		"-p", "basicdb.simulatedelay=200us", "-threads", "2", "-target", "3000"}, engine.Transactions, true, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p, err := startPrometheus("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	type result struct {
		snap *measure.Snapshot
		err  error
	}
	done := make(chan result, 1)
	go func() {
		res, err := plan.Run(context.Background(), workload.OnInterval(250*time.Millisecond, p.Hook))
		if res == nil {
			done <- result{nil, err}
			return
		}
		done <- result{res.Snapshot, err}
	}()
	time.Sleep(time.Second)
	mid := scrape(t, p.Addr())
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	end := scrape(t, p.Addr())

	midOps, _ := metric(mid, "gobench_ops_total")
	if midOps <= 0 || midOps >= float64(res.snap.Ops) {
		t.Errorf("mid-run gobench_ops_total = %v, want between 0 and the final %d", midOps, res.snap.Ops)
	}
	if v, _ := metric(end, "gobench_ops_total"); v != float64(res.snap.Ops) {
		t.Errorf("gobench_ops_total = %v, want %d", v, res.snap.Ops)
	}
	for _, op := range []string{"READ", "UPDATE"} {
		s := res.snap.Lookup(op)
		ok := s.Codes[res.snap.Layout.CodeIndex("OK")]
		if s.Count() == 0 {
			t.Fatalf("no %s samples", op)
		}
		checks := []struct {
			name   string
			labels []string
			want   float64
		}{
			{"gobench_operations_total", []string{"operation", op}, float64(s.Count())},
			{"gobench_return_codes_total", []string{"operation", op, "code", "OK"}, float64(ok)},
			{"gobench_errors_total", []string{"operation", op}, 0},
			{"gobench_latency_seconds", []string{"operation", op}, float64(s.Count())},
		}
		for _, c := range checks {
			if got, found := metric(end, c.name, c.labels...); !found || got != c.want {
				t.Errorf("%s%v = %v (found %v), want the report's %v", c.name, c.labels, got, found, c.want)
			}
		}
		for _, q := range []string{"0.5", "0.99", "0.999"} {
			if v, found := metric(end, "gobench_interval_latency_seconds", "operation", op, "quantile", q); !found || v <= 0 || v > 1 {
				t.Errorf("%s interval quantile %s = %v s (found %v), want in (0, 1]", op, q, v, found)
			}
		}
	}
	hist := end["gobench_latency_seconds"].Metric[0].Histogram
	var prev uint64
	for _, b := range hist.Bucket {
		if b.GetCumulativeCount() < prev || b.GetCumulativeCount() > hist.GetSampleCount() {
			t.Errorf("bucket %v: cumulative count %d after %d (total %d)", b.GetUpperBound(), b.GetCumulativeCount(), prev, hist.GetSampleCount())
		}
		prev = b.GetCumulativeCount()
	}
	if v, _ := metric(end, "gobench_client_saturated"); v != 0 {
		t.Errorf("gobench_client_saturated = %v before anyone set it", v)
	}
	checkDashboard(t, dashboard, end)
	p.SetSaturated(true)
	if v, _ := metric(scrape(t, p.Addr()), "gobench_client_saturated"); v != 1 {
		t.Errorf("gobench_client_saturated = %v after SetSaturated(true)", v)
	}
}

func TestPrometheusBadAddress(t *testing.T) {
	_, err := startPrometheus("127.0.0.1:notaport")
	if err == nil || !strings.Contains(err.Error(), "gobench.prometheus") || !strings.Contains(err.Error(), "notaport") {
		t.Errorf("startPrometheus(bad) = %v, want an error naming gobench.prometheus and the address", err)
	}
}

// checkDashboard: every metric the Grafana dashboard queries is exported.
func checkDashboard(t *testing.T, b []byte, mf map[string]*dto.MetricFamily) {
	t.Helper()
	var d struct{ Panels []json.RawMessage }
	if err := json.Unmarshal(b, &d); err != nil || len(d.Panels) == 0 {
		t.Fatalf("dashboard is not Grafana JSON with panels: %v", err)
	}
	names := regexp.MustCompile(`gobench_[a-z_]+`).FindAllString(string(b), -1)
	for _, n := range names {
		base := n
		for _, suf := range []string{"_bucket", "_sum", "_count"} {
			if b := strings.TrimSuffix(n, suf); b != n && mf[b] != nil && mf[b].GetType() == dto.MetricType_HISTOGRAM {
				base = b
			}
		}
		if mf[base] == nil {
			t.Errorf("the dashboard queries %s, which /metrics does not export", n)
		}
	}
}
