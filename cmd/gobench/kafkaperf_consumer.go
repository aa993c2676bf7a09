package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gobench/gobench/drivers/kafka"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/workload/kafkaperf"
)

var consumerOpts = map[string]kafkaOpt{
	"--bootstrap-server":    {usage: "brokers host:port,... (default 127.0.0.1:9092)"},
	"--topic":               {usage: "topic to consume (required)"},
	"--messages":            {usage: "records to consume (required, > 0)"},
	"--num-records":         {usage: "same as --messages (Kafka 4.2)"},
	"--group":               {usage: "consumer group (default perf-consumer-<random>)"},
	"--fetch-size":          {usage: "bytes per partition fetch (max.partition.fetch.bytes, default 1048576)"},
	"--socket-buffer-size":  {usage: "accepted and ignored (gobench uses the OS default socket buffers)"},
	"--from-latest":         {flag: true, usage: "start at the end of the topic when the group has no offset"},
	"--consumer.config":     {usage: "consumer properties file"},
	"--command-config":      {usage: "same as --consumer.config (Kafka 4.2)"},
	"--command-property":    {multi: true, usage: "k=v ... consumer properties (Kafka 4.2)"},
	"--timeout":             {usage: "ms without records before giving up (default 10000)"},
	"--print-metrics":       {flag: true, usage: "print the client's metrics (Kafka's consumer metric names where one maps)"},
	"--show-detailed-stats": {flag: true, usage: "print a row per reporting interval instead of the summary row"},
	"--reporting-interval":  {usage: "ms between detailed rows (default 5000)"},
	"--date-format":         {usage: "only Kafka's default yyyy-MM-dd HH:mm:ss:SSS is supported"},
	"--hide-header":         {flag: true, usage: "do not print the header"},
	"--threads":             {usage: "gobench: consumer workers in the group (default 1)"},
}

// consumerPerf is `gobench consumer-perf`.
func consumerPerf(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		kafkaUsage(stdout, "consumer-perf", consumerOpts)
		return nil
	}
	o, err := parseKafkaArgs(args, consumerOpts)
	if err != nil {
		return usageErr(err)
	}
	topic := one(o, "--topic", "")
	msgOpt := "--messages"
	if len(o[msgOpt]) == 0 {
		msgOpt = "--num-records"
	}
	if topic == "" || len(o[msgOpt]) == 0 {
		return usageErr(errors.New("consumer-perf: --topic and --messages are required"))
	}
	n, err := positive(o, msgOpt, "")
	if err != nil {
		return err
	}
	timeoutMs, err := positive(o, "--timeout", "10000")
	if err != nil {
		return err
	}
	every, err := positive(o, "--reporting-interval", "5000")
	if err != nil {
		return err
	}
	if f := one(o, "--date-format", "yyyy-MM-dd HH:mm:ss:SSS"); f != "yyyy-MM-dd HH:mm:ss:SSS" {
		return usageErr(fmt.Errorf("--date-format %q: only Kafka's default yyyy-MM-dd HH:mm:ss:SSS is supported", f))
	}
	var p kafkaProps
	for _, f := range append(o["--consumer.config"], o["--command-config"]...) {
		if err := p.file(f); err != nil {
			return err
		}
	}
	if err := p.items("--command-property", o["--command-property"]); err != nil {
		return err
	}
	for opt, key := range map[string]string{"--bootstrap-server": "kafka.brokers", "--group": "kafka.group", "--fetch-size": "kafka.fetchsize"} {
		if v := one(o, opt, ""); v != "" {
			p.set(opt, key, v)
		}
	}
	if _, ok := p.layers.Set().Get(kafka.KeyClientID); !ok {
		p.set("(consumer-perf default)", kafka.KeyClientID, "perf-consumer-client") // as Kafka's tool
	}
	if len(o["--from-latest"]) > 0 {
		p.set("--from-latest", "kafka.offsetreset", "latest")
	} else if _, ok := p.layers.Set().Get("kafka.offsetreset"); !ok {
		p.set("(consumer-perf default)", "kafka.offsetreset", "earliest")
	}
	p.set("--timeout", kafkaperf.KeyConsumeTimeout, fmt.Sprint(timeoutMs))
	plan, err := p.prepare(o, kafkaperf.ConsumeKind.Name, topic, n, stderr)
	if err != nil {
		return err
	}
	detailed := len(o["--show-detailed-stats"]) > 0
	if len(o["--hide-header"]) == 0 {
		fmt.Fprintln(stdout, kafkaperf.ConsumerHeader(detailed))
	}
	job := plan.Job().(*kafkaperf.Consume)
	cfg := job.Config()
	interval := time.Duration(every) * time.Millisecond
	var prevRecs, prevBytes int64
	var prevReb time.Duration
	row := func(iv *measure.Snapshot) {
		recs, bytes := job.Consumed()
		reb := job.RebalanceTime()
		el := iv.End.Sub(iv.Start)
		if detailed && el >= interval/2 {
			fmt.Fprintln(stdout, kafkaperf.ConsumerDetailRow(iv.End, bytes, recs, bytes-prevBytes, recs-prevRecs, el, reb-prevReb))
		}
		prevRecs, prevBytes, prevReb = recs, bytes, reb
	}
	res, err := runKafka(ctx, plan, stderr, interval, row)
	if res == nil {
		return err
	}
	if job.TimedOut() {
		fmt.Fprintln(stdout, kafkaperf.ConsumerTimeoutWarning(cfg.Timeout))
	}
	if !detailed {
		recs, bytes := job.Consumed()
		fmt.Fprintln(stdout, kafkaperf.ConsumerSummaryRow(res.Start, res.Start.Add(res.RunTime), bytes, recs, job.RebalanceTime()))
	}
	if len(o["--print-metrics"]) > 0 && p.db != nil {
		printMetrics(stdout, p.db.ConsumerMetrics(res.RunTime))
	}
	if err := hdrReport(stdout, plan, res); err != nil {
		return err
	}
	return err
}
