package kafka

import (
	"net"
	"sort"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// stat is a count, a sum and a maximum, updated without locks.
type stat struct{ n, sum, max atomic.Int64 }

func (s *stat) add(v int64) {
	s.n.Add(1)
	s.sum.Add(v)
	for m := s.max.Load(); v > m && !s.max.CompareAndSwap(m, v); m = s.max.Load() {
	}
}

func (s *stat) avg() float64 {
	if n := s.n.Load(); n > 0 {
		return float64(s.sum.Load()) / float64(n)
	}
	return 0
}

// clientStats are the counters of one role's clients (the producers, or
// the group consumers), fed by franz-go's hooks.
type clientStats struct {
	requests, responses, outBytes, inBytes atomic.Int64
	requestLatency                         stat // µs, write start to response read
	connections, connCreated, connClosed   atomic.Int64
	throttle                               stat // ms

	// producer
	batchSize, batchRecords, recordSize stat
	compressed, uncompressed            atomic.Int64
	produceRequests                     atomic.Int64
	recordsSent, recordErrors           atomic.Int64
	buffered, bufferedBytes             atomic.Int64
	bufferedMax                         atomic.Int64
	batchRetries, requestRetries        atomic.Int64

	// consumer
	fetchLatency             stat // µs
	fetchBatchBytes          stat
	recordsFetched           atomic.Int64
	bytesFetched             atomic.Int64
	joinLatency, syncLatency stat // µs
}

// metrics holds the DB's client statistics per role.
type metrics struct {
	prod, cons, other clientStats
}

func newMetrics() *metrics { return &metrics{} }

// hooks returns franz-go hooks (and a logger counting retries) feeding s.
func (s *clientStats) hooks() []kgo.Opt {
	return []kgo.Opt{kgo.WithHooks(hookSet{s}), kgo.WithLogger(retryLogger{s})}
}

type hookSet struct{ s *clientStats }

var (
	_ kgo.HookBrokerConnect           = hookSet{}
	_ kgo.HookBrokerDisconnect        = hookSet{}
	_ kgo.HookBrokerE2E               = hookSet{}
	_ kgo.HookBrokerThrottle          = hookSet{}
	_ kgo.HookProduceBatchWritten     = hookSet{}
	_ kgo.HookProduceRecordBuffered   = hookSet{}
	_ kgo.HookProduceRecordUnbuffered = hookSet{}
	_ kgo.HookFetchBatchRead          = hookSet{}
)

func (h hookSet) OnBrokerConnect(_ kgo.BrokerMetadata, _ time.Duration, _ net.Conn, err error) {
	if err == nil {
		h.s.connCreated.Add(1)
		h.s.connections.Add(1)
	}
}

func (h hookSet) OnBrokerDisconnect(kgo.BrokerMetadata, net.Conn) {
	h.s.connClosed.Add(1)
	h.s.connections.Add(-1)
}

// Request keys (Kafka's API keys).
const (
	keyProduce   = 0
	keyFetch     = 1
	keyJoinGroup = 11
	keySyncGroup = 14
)

func (h hookSet) OnBrokerE2E(_ kgo.BrokerMetadata, key int16, e kgo.BrokerE2E) {
	s := h.s
	s.requests.Add(1)
	s.outBytes.Add(int64(e.BytesWritten))
	if e.WriteErr != nil {
		return
	}
	if e.ReadErr == nil {
		s.responses.Add(1)
		s.inBytes.Add(int64(e.BytesRead))
	}
	us := e.DurationE2E().Microseconds()
	s.requestLatency.add(us)
	switch key {
	case keyProduce:
		s.produceRequests.Add(1)
	case keyFetch:
		s.fetchLatency.add(us)
	case keyJoinGroup:
		s.joinLatency.add(us)
	case keySyncGroup:
		s.syncLatency.add(us)
	}
}

func (h hookSet) OnBrokerThrottle(_ kgo.BrokerMetadata, d time.Duration, _ bool) {
	h.s.throttle.add(d.Milliseconds())
}

// batchHeader is the size of a record batch's header (Kafka's
// RECORD_BATCH_OVERHEAD), which Java counts in batch-size.
const batchHeader = 61

func (h hookSet) OnProduceBatchWritten(_ kgo.BrokerMetadata, _ string, _ int32, m kgo.ProduceBatchMetrics) {
	s := h.s
	s.batchSize.add(int64(m.CompressedBytes + batchHeader))
	s.batchRecords.add(int64(m.NumRecords))
	s.compressed.Add(int64(m.CompressedBytes))
	s.uncompressed.Add(int64(m.UncompressedBytes))
	s.recordsSent.Add(int64(m.NumRecords))
}

func (h hookSet) OnProduceRecordBuffered(r *kgo.Record) {
	s := h.s
	size := int64(len(r.Key) + len(r.Value))
	s.recordSize.add(size)
	n := s.buffered.Add(1)
	s.bufferedBytes.Add(size)
	for m := s.bufferedMax.Load(); n > m && !s.bufferedMax.CompareAndSwap(m, n); m = s.bufferedMax.Load() {
	}
}

func (h hookSet) OnProduceRecordUnbuffered(r *kgo.Record, err error) {
	s := h.s
	s.buffered.Add(-1)
	s.bufferedBytes.Add(-int64(len(r.Key) + len(r.Value)))
	if err != nil {
		s.recordErrors.Add(1)
	}
}

func (h hookSet) OnFetchBatchRead(_ kgo.BrokerMetadata, _ string, _ int32, m kgo.FetchBatchMetrics) {
	s := h.s
	s.fetchBatchBytes.add(int64(m.CompressedBytes + batchHeader))
	s.recordsFetched.Add(int64(m.NumRecords))
	s.bytesFetched.Add(int64(m.UncompressedBytes))
}

// retryLogger counts the retries franz-go logs (its hooks have none): a
// batch the broker failed with a retriable error, a produce request that
// failed on the network. franz-go calls it only at info level and above.
type retryLogger struct{ s *clientStats }

func (retryLogger) Level() kgo.LogLevel { return kgo.LogLevelInfo }

func (l retryLogger) Log(_ kgo.LogLevel, msg string, kv ...any) {
	switch msg {
	case "batch in a produce request failed":
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == "err_is_retryable" && kv[i+1] == true {
				l.s.batchRetries.Add(1)
			}
		}
	case "produce request failed, triggering metadata update", "random error while producing, requeueing unattempted request":
		l.s.requestRetries.Add(1)
	}
}

// Metric is one client metric, named as Kafka's --print-metrics names it:
// group:name:{client-id=...}.
type Metric struct {
	Name  string
	Value float64
}

// ProducerMetrics returns the producer clients' metrics: Kafka's
// producer-metrics where one maps onto what franz-go's hooks report, and
// gobench's own (gobench-producer-metrics) for the rest. Averages and
// rates are over the whole run (Kafka's are over its last 30 s windows).
func (db *DB) ProducerMetrics(elapsed time.Duration) []Metric {
	s := &db.metrics.prod
	sec := max(elapsed.Seconds(), 1e-9)
	tag := ":{client-id=" + db.cfg.ClientID + "}"
	k := func(name string) string { return "producer-metrics:" + name + tag }
	g := func(name string) string { return "gobench-producer-metrics:" + name + tag }
	ratio := 0.0
	if u := s.uncompressed.Load(); u > 0 {
		ratio = float64(s.compressed.Load()) / float64(u)
	}
	perReq := 0.0
	if n := s.produceRequests.Load(); n > 0 {
		perReq = float64(s.recordsSent.Load()) / float64(n)
	}
	ms := []Metric{
		{k("batch-size-avg"), s.batchSize.avg()},
		{k("batch-size-max"), float64(s.batchSize.max.Load())},
		{k("compression-rate-avg"), ratio},
		{k("connection-count"), float64(s.connections.Load())},
		{k("connection-creation-total"), float64(s.connCreated.Load())},
		{k("connection-close-total"), float64(s.connClosed.Load())},
		{k("incoming-byte-total"), float64(s.inBytes.Load())},
		{k("outgoing-byte-total"), float64(s.outBytes.Load())},
		{k("produce-throttle-time-avg"), s.throttle.avg()},
		{k("produce-throttle-time-max"), float64(s.throttle.max.Load())},
		{k("record-error-total"), float64(s.recordErrors.Load())},
		{k("record-error-rate"), float64(s.recordErrors.Load()) / sec},
		{k("record-send-total"), float64(s.recordsSent.Load())},
		{k("record-send-rate"), float64(s.recordsSent.Load()) / sec},
		{k("record-size-avg"), s.recordSize.avg()},
		{k("record-size-max"), float64(s.recordSize.max.Load())},
		{k("records-per-request-avg"), perReq},
		{k("request-latency-avg"), s.requestLatency.avg() / 1000},
		{k("request-latency-max"), float64(s.requestLatency.max.Load()) / 1000},
		{k("request-total"), float64(s.requests.Load())},
		{k("request-rate"), float64(s.requests.Load()) / sec},
		{k("response-total"), float64(s.responses.Load())},
		{g("batch-records-avg"), s.batchRecords.avg()},
		{g("batch-retry-total"), float64(s.batchRetries.Load())},
		{g("request-retry-total"), float64(s.requestRetries.Load())},
		{g("buffered-records"), float64(s.buffered.Load())},
		{g("buffered-records-max"), float64(s.bufferedMax.Load())},
		{g("buffered-bytes"), float64(s.bufferedBytes.Load())},
		{g("produce-requests-total"), float64(s.produceRequests.Load())},
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return ms
}

// ConsumerMetrics returns the group consumers' metrics, as
// [DB.ProducerMetrics] does for producers.
func (db *DB) ConsumerMetrics(elapsed time.Duration) []Metric {
	s := &db.metrics.cons
	sec := max(elapsed.Seconds(), 1e-9)
	tag := ":{client-id=" + db.cfg.ClientID + "}"
	f := func(name string) string { return "consumer-fetch-manager-metrics:" + name + tag }
	c := func(name string) string { return "consumer-coordinator-metrics:" + name + tag }
	n := func(name string) string { return "consumer-metrics:" + name + tag }
	perReq := 0.0
	if r := s.fetchLatency.n.Load(); r > 0 {
		perReq = float64(s.recordsFetched.Load()) / float64(r)
	}
	ms := []Metric{
		{f("bytes-consumed-total"), float64(s.bytesFetched.Load())},
		{f("bytes-consumed-rate"), float64(s.bytesFetched.Load()) / sec},
		{f("fetch-latency-avg"), s.fetchLatency.avg() / 1000},
		{f("fetch-latency-max"), float64(s.fetchLatency.max.Load()) / 1000},
		{f("fetch-total"), float64(s.fetchLatency.n.Load())},
		{f("fetch-throttle-time-avg"), s.throttle.avg()},
		{f("records-consumed-total"), float64(s.recordsFetched.Load())},
		{f("records-consumed-rate"), float64(s.recordsFetched.Load()) / sec},
		{f("records-per-request-avg"), perReq},
		{c("join-time-avg"), s.joinLatency.avg() / 1000},
		{c("join-time-max"), float64(s.joinLatency.max.Load()) / 1000},
		{c("join-total"), float64(s.joinLatency.n.Load())},
		{c("sync-time-avg"), s.syncLatency.avg() / 1000},
		{c("sync-time-max"), float64(s.syncLatency.max.Load()) / 1000},
		{c("sync-total"), float64(s.syncLatency.n.Load())},
		{n("connection-count"), float64(s.connections.Load())},
		{n("connection-creation-total"), float64(s.connCreated.Load())},
		{n("incoming-byte-total"), float64(s.inBytes.Load())},
		{n("outgoing-byte-total"), float64(s.outBytes.Load())},
		{n("request-latency-avg"), s.requestLatency.avg() / 1000},
		{n("request-latency-max"), float64(s.requestLatency.max.Load()) / 1000},
		{n("request-total"), float64(s.requests.Load())},
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return ms
}
