package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/saturation"
)

// observers are the watchers of one load or run besides the report: the
// saturation monitor (package saturation decides) and, with
// gobench.prometheus, the /metrics server. bench starts them before the
// run, appends Interval to the status hooks, and calls Finish then Close
// after it.
type observers struct {
	stderr io.Writer
	sat    *saturation.Monitor
	prom   *promServer // nil without gobench.prometheus

	mu     sync.Mutex
	warned bool // the live saturation warning was printed
}

// startObservers starts the saturation monitor for a run at target ops/s
// (0 = unthrottled) and, when promAddr is not empty, the Prometheus
// endpoint (an error names gobench.prometheus and the address).
func startObservers(target float64, promAddr string, stderr io.Writer) (*observers, error) {
	o := &observers{stderr: stderr}
	if promAddr != "" {
		p, err := startPrometheus(promAddr)
		if err != nil {
			return nil, err
		}
		o.prom = p
		fmt.Fprintf(stderr, "Serving Prometheus metrics on http://%s/metrics\n", p.Addr())
	}
	o.sat = saturation.Start(target)
	return o, nil
}

// Interval feeds one measurement interval to the watchers. Each window of
// saturation.LiveWindow or more is judged: the gauge follows the latest
// verdict, and the first saturated window prints the warning.
func (o *observers) Interval(iv *measure.Snapshot) {
	if o.prom != nil {
		o.prom.Hook(iv)
	}
	v, judged := o.sat.Interval(iv.Ops, iv.End.Sub(iv.Start))
	if !judged {
		return
	}
	if o.prom != nil {
		o.prom.SetSaturated(v.Saturated)
	}
	o.mu.Lock()
	first := v.Saturated && !o.warned
	o.warned = o.warned || v.Saturated
	o.mu.Unlock()
	if first {
		fmt.Fprintf(o.stderr, "Warning: %s\n", v)
	}
}

// Finish judges the whole run (ops operations in runTime), prints its
// warnings, sets the gauge, and returns the verdict for the result
// document (Saturated, String, Warnings).
func (o *observers) Finish(ops int64, runTime time.Duration) saturation.Verdict {
	v := o.sat.Finish(ops, runTime)
	for _, w := range v.Warnings() {
		fmt.Fprintf(o.stderr, "Warning: over the whole run, %s\n", w)
	}
	if o.prom != nil {
		o.prom.SetSaturated(v.Saturated)
	}
	return v
}

// Close stops the Prometheus endpoint; call it also when the run failed
// before Finish. (The monitor runs no goroutine.)
func (o *observers) Close() {
	if o.prom != nil {
		if err := o.prom.Stop(); err != nil {
			fmt.Fprintf(o.stderr, "Warning: gobench.prometheus: %v\n", err)
		}
	}
}
