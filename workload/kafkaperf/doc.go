// Package kafkaperf is Kafka's perf tools as gobench workload kinds:
// [ProduceKind] (kafka-producer-perf-test.sh: records of a size, or from a
// payload file, sent asynchronously at Kafka's throttled rate, latency from
// send to acknowledgement) and [ConsumeKind] (kafka-consumer-perf-test.sh:
// records consumed as a group until a count or an idle timeout). It owns the
// tools' output formats (the producer's window and summary lines, the
// consumer's header and rows) and the mapping of Java client properties
// onto gobench's keys ([JavaKey]).
//
// The kinds run through package workload (workload.Prepare) against any
// driver whose DB declares drivers.CapProduce or drivers.CapConsume (the
// kafka driver).
//
// It may import engine, drivers, measure and props, and the standard
// library.
package kafkaperf
