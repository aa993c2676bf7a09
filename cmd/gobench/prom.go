package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gobench/gobench/measure"
	rep "github.com/gobench/gobench/report"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// promBuckets are the upper bounds (seconds) of gobench_latency_seconds,
// from 50 µs to 10 s.
var promBuckets = []float64{50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3, 100e-3, 250e-3, 500e-3, 1, 2.5, 5, 10}

// promQuantiles are the per-interval latency percentiles exported as
// gauges, labelled with promQuantileLabels.
var (
	promQuantiles      = []float64{50, 99, 99.9}
	promQuantileLabels = []string{"0.5", "0.99", "0.999"}
)

var (
	descOps       = prometheus.NewDesc("gobench_ops_total", "Operations completed (the count behind the report's Throughput).", nil, nil)
	descSamples   = prometheus.NewDesc("gobench_operations_total", "Latency samples per measurement series (the report's Operations).", []string{"operation"}, nil)
	descCodes     = prometheus.NewDesc("gobench_return_codes_total", "Return codes per measurement series (the report's Return= lines).", []string{"operation", "code"}, nil)
	descErrors    = prometheus.NewDesc("gobench_errors_total", "Return codes other than OK and BATCHED_OK per series.", []string{"operation"}, nil)
	descLatency   = prometheus.NewDesc("gobench_latency_seconds", "Latency since the start of the run, from the HDR histograms.", []string{"operation"}, nil)
	descQuantile  = prometheus.NewDesc("gobench_interval_latency_seconds", "Latency percentiles of the last measurement interval in which the series had samples.", []string{"operation", "quantile"}, nil)
	descIntTput   = prometheus.NewDesc("gobench_interval_throughput_ops_per_second", "Operations per second in the last measurement interval.", nil, nil)
	descSaturated = prometheus.NewDesc("gobench_client_saturated", "1 when the client itself may be the bottleneck (see the saturation warning): during the run, the verdict of the latest window of 2 s or more; after it, of the whole run.", nil, nil)
)

// promExporter holds a run's running totals, built from the interval
// snapshots, and serves them as Prometheus metrics. Its methods are safe
// for concurrent use: the runner's collector goroutine feeds it while the
// HTTP server scrapes.
type promExporter struct {
	mu        sync.Mutex
	total     *measure.Snapshot
	tput      float64            // ops/s of the last interval of at least minRateInterval
	quantiles map[string][]int64 // per series, promQuantiles of its last interval with samples (µs)
	saturated bool
}

// minRateInterval: shorter intervals (the run's last, cut short) leave the
// interval throughput gauge as it was; their rate is noise.
const minRateInterval = 100 * time.Millisecond

// interval adds iv to the totals. It keeps no reference to iv.
func (e *promExporter) interval(iv *measure.Snapshot) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if d := iv.End.Sub(iv.Start); d >= minRateInterval {
		e.tput = float64(iv.Ops) / d.Seconds()
	}
	for i := range iv.Series {
		if s := &iv.Series[i]; s.Count() > 0 {
			if e.quantiles == nil {
				e.quantiles = map[string][]int64{}
			}
			e.quantiles[iv.Layout.Series[i]] = s.Percentiles(promQuantiles)
		}
	}
	if e.total == nil {
		e.total = iv.Clone()
		return
	}
	if err := e.total.Merge(iv); err != nil {
		// Cannot happen with one collector's intervals (same range).
		e.total = iv.Clone()
	}
}

// setSaturated sets gobench_client_saturated.
func (e *promExporter) setSaturated(v bool) {
	e.mu.Lock()
	e.saturated = v
	e.mu.Unlock()
}

// Describe sends nothing: the metrics are unchecked (series appear as the
// run meets them).
func (e *promExporter) Describe(chan<- *prometheus.Desc) {}

// Collect sends the current totals.
func (e *promExporter) Collect(ch chan<- prometheus.Metric) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sat := 0.0
	if e.saturated {
		sat = 1
	}
	ch <- prometheus.MustNewConstMetric(descSaturated, prometheus.GaugeValue, sat)
	if e.total == nil {
		ch <- prometheus.MustNewConstMetric(descOps, prometheus.CounterValue, 0)
		return
	}
	t := e.total
	ch <- prometheus.MustNewConstMetric(descOps, prometheus.CounterValue, float64(t.Ops))
	for i := range t.Series {
		s, name := &t.Series[i], t.Layout.Series[i]
		if !s.Active() {
			continue
		}
		ch <- prometheus.MustNewConstMetric(descSamples, prometheus.CounterValue, float64(s.Count()), name)
		var errs int64
		for c, n := range s.Codes {
			if n == 0 {
				continue
			}
			code := t.Layout.Codes[c]
			ch <- prometheus.MustNewConstMetric(descCodes, prometheus.CounterValue, float64(n), name, code)
			if rep.IsError(code) {
				errs += n
			}
		}
		ch <- prometheus.MustNewConstMetric(descErrors, prometheus.CounterValue, float64(errs), name)
		if s.Count() > 0 {
			ch <- prometheus.MustNewConstHistogram(descLatency, uint64(s.Count()), float64(s.SumMicros)/1e6, promHistogram(s), name)
		}
	}
	ch <- prometheus.MustNewConstMetric(descIntTput, prometheus.GaugeValue, e.tput)
	for name, vs := range e.quantiles {
		for k, v := range vs {
			ch <- prometheus.MustNewConstMetric(descQuantile, prometheus.GaugeValue, float64(v)/1e6, name, promQuantileLabels[k])
		}
	}
}

// promHistogram returns the cumulative bucket counts of s for promBuckets:
// an HDR bucket counts under a bound when its highest equivalent value is
// at most the bound.
func promHistogram(s *measure.Series) map[float64]uint64 {
	out := make(map[float64]uint64, len(promBuckets))
	dist := s.Hist.Distribution()
	var cum int64
	k := 0
	for _, ub := range promBuckets {
		limit := int64(ub * 1e6)
		for k < len(dist) && dist[k].To <= limit {
			cum += dist[k].Count
			k++
		}
		out[ub] = uint64(cum)
	}
	return out
}

// startPrometheus serves /metrics on addr (host:port; port 0 picks one)
// while a run goes (gobench.prometheus). Feed [promServer.Hook] with every
// interval (append it to bench's status hooks); [promServer.Stop] shuts the
// server down.
func startPrometheus(addr string) (p *promServer, err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("gobench.prometheus %s: %w", addr, err)
	}
	e := &promExporter{}
	reg := prometheus.NewRegistry()
	reg.MustRegister(e)
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	p = &promServer{exp: e, srv: srv, addr: ln.Addr().String(), done: make(chan error, 1)}
	go func() { p.done <- srv.Serve(ln) }()
	return p, nil
}

// promServer is a running /metrics endpoint.
type promServer struct {
	exp  *promExporter
	srv  *http.Server
	addr string
	done chan error
}

// Hook is the interval hook to append to bench's status hooks.
func (p *promServer) Hook(iv *measure.Snapshot) { p.exp.interval(iv) }

// SetSaturated sets gobench_client_saturated.
func (p *promServer) SetSaturated(v bool) { p.exp.setSaturated(v) }

// Addr is the bound address (host:port).
func (p *promServer) Addr() string { return p.addr }

// Stop shuts the server down, waiting up to 2 s for scrapes in flight.
func (p *promServer) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := p.srv.Shutdown(ctx)
	if serr := <-p.done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
