package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/kafka"
	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/kafkaperf"
)

// gobench producer-perf / consumer-perf: Kafka's kafka-producer-perf-test.sh
// and kafka-consumer-perf-test.sh with their own option spellings, printing
// Kafka's lines on stdout, then gobench's HDR report (YCSB text blocks with
// p50 to p99.99 and max, in µs).
//
// Where gobench differs from the Java tools:
//   - window lines come from the runner's 5 s interval cuts (a window with
//     no acknowledgement prints nothing, as in Kafka), not from callbacks;
//   - the final line's percentiles are the HDR histogram's (µs resolution)
//     truncated to whole ms, not Kafka's integer-ms strided sample;
//   - records/sec prints as %f (Kafka 3.x and 4.4, the testenv's version);
//     --kafka-compat 4.0 prints %.1f as 4.0 did;
//   - the consumer stops at exactly --messages (Kafka counts whole polls and
//     may pass it); --date-format accepts only Kafka's default;
//   - --print-metrics prints franz-go's client statistics under Kafka's
//     metric names where one maps (drivers/kafka ProducerMetrics,
//     ConsumerMetrics), averaged over the whole run;
//   - Java client properties are mapped to kafka.* keys (kafkaperf.JavaKey);
//     the ones franz-go cannot honour are named, without their values, in
//     one warning; --transactional-id is not supported.

// kafkaOpt describes one option: takes a value, or several (nargs +).
type kafkaOpt struct {
	flag, multi bool
	usage       string
}

// parseKafkaArgs parses argparse/jopt style options: --name value,
// --name=value, flags, and --name v1 v2 ... for multi-valued options.
func parseKafkaArgs(args []string, spec map[string]kafkaOpt) (map[string][]string, error) {
	out := map[string][]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		o, ok := spec[name]
		if !strings.HasPrefix(a, "--") || !ok {
			return nil, fmt.Errorf("unrecognized argument %q (options: %s)", a, optNames(spec))
		}
		switch {
		case o.flag:
			if hasVal {
				return nil, fmt.Errorf("option %s takes no value", name)
			}
			out[name] = append(out[name], "true")
		case hasVal:
			out[name] = append(out[name], val)
		default:
			n := 0
			for i+1 < len(args) && (n == 0 || o.multi && !strings.HasPrefix(args[i+1], "--")) {
				i++
				n++
				out[name] = append(out[name], args[i])
			}
			if n == 0 {
				return nil, fmt.Errorf("option %s needs a value", name)
			}
		}
	}
	return out, nil
}

func optNames(spec map[string]kafkaOpt) string {
	var n []string
	for k := range spec {
		n = append(n, k)
	}
	sort.Strings(n)
	return strings.Join(n, " ")
}

func kafkaUsage(w io.Writer, tool string, spec map[string]kafkaOpt) {
	fmt.Fprintf(w, "usage: gobench %s [options]\n", tool)
	for _, n := range strings.Fields(optNames(spec)) {
		fmt.Fprintf(w, "  %-24s %s\n", n, spec[n].usage)
	}
}

// kafkaProps layers a Java properties file, then k=v items, then the tool's
// own options (highest), translating Java client keys (kafkaperf.JavaKey).
// Keys with no equivalent are collected and named in one warning, never
// with their values (they may be secrets).
type kafkaProps struct {
	layers  props.Layers
	ignored []string
	db      *kafka.DB
}

// keptKafka is the kafka driver, keeping the DB it configures so that
// --print-metrics can read its client metrics after the run.
type keptKafka struct {
	kafka.Driver
	db **kafka.DB
}

func (d keptKafka) Configure(p *props.Decoder, s drivers.Schema) (drivers.DB, error) {
	db, err := d.Driver.Configure(p, s)
	if err == nil {
		*d.db = db.(*kafka.DB)
	}
	return db, err
}

// printMetrics prints the client metrics of the run's DB as Kafka's tools
// do with --print-metrics.
func printMetrics(w io.Writer, ms []kafka.Metric) {
	km := make([]kafkaperf.Metric, len(ms))
	for i, m := range ms {
		km[i] = kafkaperf.Metric{Name: m.Name, Value: m.Value}
	}
	for _, l := range kafkaperf.MetricsTable(km) {
		fmt.Fprintln(w, l)
	}
}

func (p *kafkaProps) add(layer props.Layer, v props.Value) {
	k, ok := kafkaperf.JavaKey(v.Key)
	if !ok {
		p.ignored = append(p.ignored, v.Key+" ("+v.Where()+")")
		return
	}
	if k == "" {
		return // the Java tools override it as well (serializers)
	}
	v.Key = k
	p.layers.Add(layer, v)
}

func (p *kafkaProps) file(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return usageErr(fmt.Errorf("config file: %w", err))
	}
	defer f.Close()
	vals, err := parse(f, path)
	if err != nil {
		return err
	}
	for _, v := range vals {
		p.add(props.LayerFile, v)
	}
	return nil
}

func (p *kafkaProps) items(opt string, kvs []string) error {
	for _, kv := range kvs {
		parts := strings.Split(kv, "=")
		if len(parts) != 2 {
			k, _, _ := strings.Cut(kv, "=")
			return usageErr(fmt.Errorf("%s: invalid property %q (want key=value; values containing '=' go in the config file)", opt, k+"=..."))
		}
		p.add(props.LayerOverride, props.Value{Key: parts[0], Value: parts[1], Source: opt})
	}
	return nil
}

func (p *kafkaProps) set(opt, key, value string) {
	p.layers.Add(props.LayerFlag, props.Value{Key: key, Value: value, Source: opt})
}

// prepare makes the plan of a perf tool run: kind on the kafka driver, n
// records on --threads workers, percentiles p50 to p99.99 in the report.
// The configured DB is kept in p.db for --print-metrics.
func (p *kafkaProps) prepare(o map[string][]string, kind, topic string, n int64, stderr io.Writer) (*workload.Plan, error) {
	t, err := positive(o, "--threads", "1")
	if err != nil {
		return nil, err
	}
	for k, v := range map[string]string{
		"workload": kind, "db": "kafka", "table": topic, "operationcount": fmt.Sprint(n), "threadcount": fmt.Sprint(t),
		"hdrhistogram.percentiles": "50,90,95,99,99.9,99.99",
	} {
		p.set("gobench "+kind, k, v)
	}
	plan, err := workload.Prepare(p.layers.Set(), workload.WithDriver("kafka", keptKafka{db: &p.db}))
	if err != nil {
		return nil, configErr(err)
	}
	if len(p.ignored) > 0 {
		fmt.Fprintf(stderr, "Warning: these properties have no equivalent in gobench's Kafka client and are ignored: %s\n", strings.Join(p.ignored, ", "))
	}
	if unused := kafka.UnusedSecurity(p.layers.Set()); len(unused) > 0 {
		proto, _ := p.layers.Set().Get(kafka.KeySecurityProtocol)
		fmt.Fprintf(stderr, "Warning: security.protocol is %s; these properties are not used with it: %s\n",
			cmp.Or(proto.Value, "PLAINTEXT (default)"), strings.Join(unused, ", "))
	}
	for _, w := range plan.Warnings {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	return plan, nil
}

// one returns the last value of option name, or def.
func one(o map[string][]string, name, def string) string {
	if v := o[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	return def
}

// positive parses option name as an integer > 0 (Kafka 4.x's rule).
func positive(o map[string][]string, name, def string) (int64, error) {
	v := one(o, name, def)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, usageErr(fmt.Errorf("%s %q: want a whole number greater than 0", name, v))
	}
	return n, nil
}

// hdrReport prints gobench's own report (YCSB's text blocks, percentiles
// p50 to p99.99 and max) after Kafka's lines.
func hdrReport(stdout io.Writer, plan *workload.Plan, res *engine.Result) error {
	lines := measure.Lines(res.Snapshot, measure.LineOptions{RunTime: res.RunTime, Percentiles: plan.Output.Percentiles})
	return measure.WriteText(stdout, lines)
}

// msAt returns the latency at percentile p of s in whole milliseconds,
// with the rank rule of every gobench report.
func msAt(s *measure.Series, p float64) int64 {
	if s == nil || s.Hist == nil {
		return 0
	}
	return s.Percentile(p) / 1000
}

// meanMaxMs returns the mean and max latency of s in milliseconds.
func meanMaxMs(s *measure.Series) (count int64, avg, maxMs float64) {
	if s == nil || s.Hist == nil || s.Hist.TotalCount() == 0 {
		return 0, 0, 0
	}
	n := s.Hist.TotalCount()
	return n, float64(s.SumMicros) / float64(n) / 1000, float64(s.MaxMicros) / 1000
}

// runKafka runs a perf tool's plan, feeding every interval (cut every
// every) to fn; it returns nil when nothing ran.
func runKafka(ctx context.Context, plan *workload.Plan, stderr io.Writer, every time.Duration, fn func(*measure.Snapshot)) (*engine.Result, error) {
	res, err := plan.Run(ctx, workload.WithLog(stderr), workload.OnInterval(every, fn))
	var openErr *engine.OpenError
	if res == nil || errors.As(err, &openErr) {
		return nil, redactErr(err, plan.Props())
	}
	if n := len(res.OpenErrors); n > 0 {
		fmt.Fprintf(stderr, "Warning: %d of %d workers could not open a connection and did nothing: %s\n",
			n, res.Threads, props.RedactText(plan.Props(), res.OpenErrors[0].Error()))
	}
	return res, redactErr(err, plan.Props())
}

var producerOpts = map[string]kafkaOpt{
	"--topic":             {usage: "topic to produce to (required)"},
	"--num-records":       {usage: "number of records to produce (required, > 0)"},
	"--record-size":       {usage: "payload bytes per record (or --payload-file)"},
	"--payload-file":      {usage: "UTF-8 file of payloads split by --payload-delimiter; each record picks one at random"},
	"--payload-delimiter": {usage: "regular expression between payloads (default \\n)"},
	"--payload-monotonic": {flag: true, usage: "payload = the record's index in decimal (Kafka 3.9+)"},
	"--throughput":        {usage: "records/s to aim for, -1 = unthrottled (required)"},
	"--producer-props":    {multi: true, usage: "k=v ... producer properties (Java names mapped to kafka.*; override the file)"},
	"--command-property":  {multi: true, usage: "same as --producer-props (Kafka 4.2)"},
	"--producer.config":   {usage: "producer properties file"},
	"--command-config":    {usage: "same as --producer.config (Kafka 4.2)"},
	"--bootstrap-server":  {usage: "brokers host:port,... (overrides the properties)"},
	"--print-metrics":     {flag: true, usage: "print the client's metrics (Kafka's producer-metrics names where one maps)"},
	"--threads":           {usage: "gobench: producer workers (default 1)"},
	"--kafka-compat":      {usage: "gobench: records/sec format of the final line: 4.4 (%f, as 3.x and 4.4 print; default) or 4.0 (%.1f)"},
}

// producerPerf is `gobench producer-perf`.
func producerPerf(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		kafkaUsage(stdout, "producer-perf", producerOpts)
		return nil
	}
	o, err := parseKafkaArgs(args, producerOpts)
	if err != nil {
		return usageErr(err)
	}
	topic := one(o, "--topic", "")
	if topic == "" || len(o["--num-records"]) == 0 || len(o["--throughput"]) == 0 {
		return usageErr(errors.New("producer-perf: --topic, --num-records and --throughput are required"))
	}
	if sizes := len(o["--record-size"]) + len(o["--payload-file"]) + len(o["--payload-monotonic"]); sizes != 1 {
		return usageErr(errors.New("producer-perf: give exactly one of --record-size, --payload-file and --payload-monotonic"))
	}
	n, err := positive(o, "--num-records", "")
	if err != nil {
		return err
	}
	compat := one(o, "--kafka-compat", "4.4")
	if compat != "4.4" && compat != "4.0" {
		return usageErr(fmt.Errorf("--kafka-compat %q: want 4.4 (records/sec as %%f, also 3.x) or 4.0 (%%.1f)", compat))
	}
	var p kafkaProps
	for _, f := range append(o["--producer.config"], o["--command-config"]...) {
		if err := p.file(f); err != nil {
			return err
		}
	}
	for _, name := range []string{"--producer-props", "--command-property"} {
		if err := p.items(name, o[name]); err != nil {
			return err
		}
	}
	if bs := one(o, "--bootstrap-server", ""); bs != "" {
		p.set("--bootstrap-server", "kafka.brokers", bs)
	}
	if _, ok := p.layers.Set().Get(kafka.KeyClientID); !ok {
		p.set("(producer-perf default)", kafka.KeyClientID, "perf-producer-client") // as Kafka's tool
	}
	p.set("--topic", kafkaperf.KeyProduceTopic, topic)
	p.set("--throughput", kafkaperf.KeyProduceThroughput, one(o, "--throughput", ""))
	if len(o["--payload-monotonic"]) > 0 {
		p.set("--payload-monotonic", kafkaperf.KeyProduceMonotonic, "true")
	}
	if v := one(o, "--record-size", ""); v != "" {
		if _, err := positive(o, "--record-size", ""); err != nil {
			return err
		}
		p.set("--record-size", kafkaperf.KeyProduceRecordSize, v)
	}
	if f := one(o, "--payload-file", ""); f != "" {
		p.set("--payload-file", kafkaperf.KeyProducePayloadFile, f)
		p.set("--payload-delimiter", kafkaperf.KeyProducePayloadDelim, one(o, "--payload-delimiter", "\n"))
	}
	plan, err := p.prepare(o, kafkaperf.ProduceKind.Name, topic, n, stderr)
	if err != nil {
		return err
	}
	job := plan.Job().(*kafkaperf.Produce)
	if f := one(o, "--payload-file", ""); f != "" {
		abs, _ := filepath.Abs(f)
		fmt.Fprintf(stdout, "Reading payloads from: %s\n", abs)
		fmt.Fprintf(stdout, "Number of messages read: %d\n", len(job.Config().Payloads))
	}
	var prevBytes int64
	window := func(iv *measure.Snapshot) {
		_, b := job.Acked()
		ivBytes := b - prevBytes
		prevBytes = b
		count, avg, maxMs := meanMaxMs(iv.Lookup(kafkaperf.NameProduce))
		if el := iv.End.Sub(iv.Start); count > 0 && el >= 4500*time.Millisecond {
			fmt.Fprintln(stdout, kafkaperf.ProducerWindowLine(count, ivBytes, el, avg, maxMs))
		}
	}
	res, err := runKafka(ctx, plan, stderr, 5*time.Second, window)
	if res == nil {
		return err
	}
	s := res.Snapshot.Lookup(kafkaperf.NameProduce)
	_, avg, maxMs := meanMaxMs(s)
	recs, bytes := job.Acked()
	dec := -1
	if compat == "4.0" {
		dec = 1
	}
	sum := kafkaperf.ProducerSummary{Records: recs, Bytes: bytes, Elapsed: res.RunTime, AvgMs: avg, MaxMs: maxMs,
		P50: msAt(s, 50), P95: msAt(s, 95), P99: msAt(s, 99), P999: msAt(s, 99.9), RateDecimals: dec}
	fmt.Fprintln(stdout, sum.Line())
	if len(o["--print-metrics"]) > 0 && p.db != nil {
		printMetrics(stdout, p.db.ProducerMetrics(res.RunTime))
	}
	for _, n := range res.Notes {
		fmt.Fprintln(stderr, n)
	}
	if err := hdrReport(stdout, plan, res); err != nil {
		return err
	}
	var fe *workload.FailedError
	if errors.As(err, &fe) {
		return fmt.Errorf("producer-perf: %d of %d records failed; the first: %s", fe.Failed, fe.Attempted, fe.First)
	}
	return err
}
