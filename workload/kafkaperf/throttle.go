package kafkaperf

import "time"

// kafkaThrottle is Kafka's ThroughputThrottler: records-based, checked after
// each send, sleeping in steps of at least 2 ms so that the long-run average
// stays at the target with ~2 ms bursts. It is used by one goroutine.
type kafkaThrottle struct {
	target  float64       // records/s; < 0 = unthrottled, 0 = block
	start   time.Duration // loop start on the caller's clock
	perRec  time.Duration // 1e9/target ns
	deficit time.Duration // sleep owed
}

// kafkaMinSleep is the throttler's sleep granularity.
const kafkaMinSleep = 2 * time.Millisecond

func newKafkaThrottle(target float64, start time.Duration) kafkaThrottle {
	t := kafkaThrottle{target: target, start: start}
	if target > 0 {
		t.perRec = time.Duration(float64(time.Second) / target)
	}
	return t
}

// should reports whether sending sent records by now is ahead of the
// target (Kafka's shouldThrottle).
func (t *kafkaThrottle) should(sent int64, now time.Duration) bool {
	if t.target < 0 {
		return false
	}
	elapsed := (now - t.start).Seconds()
	return elapsed > 0 && float64(sent)/elapsed > t.target
}

// owed adds one record's share of sleep and returns how long to sleep now:
// 0 until the deficit reaches 2 ms. With target 0 it returns -1: block
// until stopped (Kafka waits forever).
func (t *kafkaThrottle) owed() time.Duration {
	if t.target == 0 {
		return -1
	}
	t.deficit += t.perRec
	if t.deficit < kafkaMinSleep {
		return 0
	}
	d := t.deficit
	t.deficit = 0
	return d
}
