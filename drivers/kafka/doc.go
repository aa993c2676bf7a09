// Package kafka is gobench's "kafka" driver, on github.com/segmentio/kafka-go
// (v0.4.51, whose Produce/Fetch/ListOffsets/Metadata requests negotiate API
// versions and work against Kafka 4.x, which removed the oldest ones).
//
// How the YCSB operations map onto a log:
//
//   - Table = topic. A missing topic is created at first use
//     (kafka.createtopic) with kafka.partitions partitions, replication
//     kafka.replication and max.message.bytes = kafka.maxmessagebytes, so
//     records from 1 B to well over 1 MB fit.
//   - Insert produces one record keyed by the YCSB key to partition
//     FNV-1a(key) mod partitions, synchronously (one request per operation,
//     acks = kafka.acks). The value is the record's fields, compactly encoded:
//     a format byte 1, then per field uvarint(index), uvarint(length), bytes.
//   - Update reads the key's newest record, lays the new fields over it and
//     produces the merged record (Kafka records replace, they do not merge);
//     updates of one key are serialised inside the process.
//   - Delete produces a tombstone (null value).
//   - Read fetches the key's newest record at its offset. The driver keeps a
//     key → (partition, offset) index, fed by produce acknowledgements. At the
//     first use of a topic in a process the driver reads the whole topic once
//     to rebuild the index; that read happens inside the first operation on
//     the topic (like YCSB's DB.init, inside the run time) and is reported
//     apart by [DB.IndexBuilds]. With kafka.acks=0 no offsets come back and
//     reads of keys written by this process find nothing.
//   - Scan visits up to N live keys >= start in key order (YCSB's contract),
//     taken from the index, fetching each record at its offset: N random reads
//     from the log.
//
// The produce and consume workloads use the optional [drivers.Producer] and
// [drivers.Consumer] interfaces: asynchronous produce through kafka-go's
// Writer (batches of kafka.batchsize bytes sent after kafka.linger ms;
// records larger than a batch go one per request through a second set of
// writers). A kafka-go writer sends one batch per partition at a time where
// Java pipelines max.in.flight.requests.per.connection (5) requests, so a
// conn rotates over kafka.inflight writers, one batch's worth of bytes each.
// Group consumption goes through github.com/twmb/franz-go (v1.22.3) instead:
// bench/kafka.sh measured kafka-go's Reader at 0.56-0.86x of Java's
// ConsumerPerformance on 100-byte records (fetch.MB.sec; one channel send per
// record) and franz-go at 1.5-4x. The member uses group kafka.group, starts at
// kafka.offsetreset, fetches kafka.fetchsize per partition, buffers up to
// kafka.consumerqueue records, and commits polled offsets every 5 s and at
// close, like Java's auto-commit. Rebalance time runs from subscribing (or a
// revocation) to the assignment callback, as in Java's tool.
//
// Hot path: the driver's own code (encoding, index, partitioning) allocates
// nothing per operation; kafka-go allocates per request (see the
// benchmarks with -tags integration: BenchmarkRead about 30 allocations and
// 68 KB per read, BenchmarkProduceAsync 6 allocations per record,
// BenchmarkConsume about 1 per record).
//
// Imports: drivers, props, kafka-go, franz-go (consumer only).
//
// Example (gobench CLI):
//
//	testenv/up.sh kafka
//	gobench load -db kafka -P workloads/workloada -p kafka.brokers=127.0.0.1:9092
//	gobench run  -db kafka -P workloads/workloada
package kafka
