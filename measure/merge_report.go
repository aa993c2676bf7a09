package measure

import "strconv"

// Lines returns the YCSB report of the merge: RunTime is the union span,
// Throughput the merged throughput and the line after it its window
// ("[OVERALL], Window, common", "live" or "union"); further OVERALL lines
// give the number of clients, the common window's length and, for the live
// window, its length (LiveWindow(ms)). The first document's
// percentiles and measurementtype shape the blocks.
func (m *Merged) Lines() []Line {
	first := m.Docs[0]
	typ := HdrHistogram
	if first.Config["measurementtype"] == "timeseries" {
		typ = TimeSeries
	}
	extra := []Line{
		{Metric: "OVERALL", Measurement: "Window", Value: Text(string(m.Window))},
		{Metric: "OVERALL", Measurement: "Clients", Value: Int(int64(len(m.Docs)))},
		{Metric: "OVERALL", Measurement: "CommonWindow(ms)", Value: Int(max(m.Common.Duration().Milliseconds(), 0))},
	}
	if m.Window == LiveWindow {
		extra = append(extra, Line{Metric: "OVERALL", Measurement: "LiveWindow(ms)", Value: Int(m.Measured.Duration().Milliseconds())})
	}
	lines := Lines(m.Total, LineOptions{
		RunTime: m.Union.Duration(), Percentiles: first.Percentiles, Type: typ, Extra: extra,
	})
	for i := range lines {
		if lines[i].Metric == "OVERALL" && lines[i].Measurement == "Throughput(ops/sec)" {
			lines[i].Value = Float(m.Throughput)
		}
	}
	return lines
}

// Document returns the merged result document: the first document's
// configuration without gobench.client and exportfile and with
// gobench.clients set to the number of documents, the merged total and
// intervals over the union span, the merged throughput and its window, the
// merge's warnings, client_saturated if any client was, and the clients'
// gobench version when they all had the same.
func (m *Merged) Document() (*Document, error) {
	first := m.Docs[0]
	cfg := map[string]string{}
	for k, v := range first.Config {
		cfg[k] = v
	}
	delete(cfg, ClientKey)
	delete(cfg, "exportfile")
	cfg[ClientsKey] = strconv.Itoa(len(m.Docs))
	doc, err := NewDocument(m.Total, DocumentOptions{
		Config: cfg, Seed: first.Seed, RunTime: m.Union.Duration(), Percentiles: first.Percentiles, Intervals: m.Intervals,
	})
	if err != nil {
		return nil, err
	}
	doc.Throughput, doc.ThroughputWindow = m.Throughput, m.Window
	if VersionWarning(m.Docs, m.Labels) == "" {
		doc.Version = first.Version
	}
	doc.Warnings = m.Warnings
	doc.ClientSaturated = m.ClientSaturated
	return doc, nil
}
