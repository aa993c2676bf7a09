// Package timeseries is Java YCSB's TimeSeriesWorkload
// (site.ycsb.workloads.TimeSeriesWorkload, also workload=timeseries) as a
// gobench workload kind ([Kind]): fieldcount metric keys of fieldlength
// letters, tagcount tag keys of tagkeylength letters, each with
// tagcardinality values of tagvaluelength letters (Java's incrementing
// "AAAA", "AAAB", ... strings), one data point per insert at timestamps
// timestampinterval apart in timestampunits from insertstart, values
// floats, integers or both, or with dataintegrity Java's hash of the tags
// XOR the timestamp, which reads verify (VERIFY).
//
// Each worker writes its own slice of the metric keys and walks their tag
// combinations and timestamps exactly as Java's ThreadState does
// (nextDataPoint: sparsity, delayedseries, delayedintervals,
// randomwritetimestamporder, randomtimeseriesorder), so for the same
// properties and thread count a load writes the same keys, tags,
// timestamps and (with dataintegrity) values as Java YCSB 0.17.0, in the
// same order per thread (testdata/java holds Java's output and the command
// that made it). Java's random choices (shuffles, sparsity, update
// timestamps, the values without dataintegrity) come from gobench's seeded
// streams instead.
//
// A data point is a record at the metric key whose fields are the tag keys
// (values: the tag values), timestampkey (the timestamp) and valuekey (the
// value), both 8 bytes big-endian as Java's NumericByteIterator (a double's
// IEEE bits for floats); the schema lists the fields sorted by name, the
// order of Java's TreeMap. On a key-value store every point of a metric
// key overwrites the last, as it does under Java with a key-value binding.
//
// Deliberate differences from Java, each because Java fails:
//   - Reads and scans fetch the metric key's record whole. Java passes its
//     query predicates as field names ("AA=AB", "YCSBTS=t1,t2", "YCSBGB=SUM",
//     "YCSBDS=SUM60"), which only a time-series binding understands;
//     gobench's drivers select fields by schema position, so querytimespan,
//     queryrandomtimespan, querytimespandelimiter, groupbyfunction,
//     groupbykeys and downsampling* are checked as Java checks them but do
//     not reach the driver. Deletes carry Java's predicate string as the key,
//     as Java does (deleteproportion, gobench's: Java 0.17.0 has no way to
//     choose DELETE).
//   - Where Java throws (an update before the first interval has passed,
//     cardinalities left out beyond the first, a query offset range of
//     zero, sparsity below one point per key) gobench takes the value Java
//     meant (0, 1); groupbyfunction works (Java 0.17.0 dereferences the tag
//     keys before creating them); readmodifywriteproportion is refused
//     (Java ends the thread at the first one).
//
// It may import engine, generator, drivers and props, and the standard
// library.
package timeseries
