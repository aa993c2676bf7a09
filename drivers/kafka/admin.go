package kafka

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/gobench/gobench/drivers"
)

// topicMeta is what the metadata of a topic says.
type topicMeta struct {
	id      [16]byte
	leaders []int32 // per partition
	epochs  []int32
}

// describe returns the metadata of topic name once every partition has a
// leader, creating the topic when it is missing and create is set. It
// retries for up to kafka.timeout (a new topic takes a moment to elect
// leaders; a restarting broker to answer).
func (db *DB) describe(ctx context.Context, name string, create bool) (topicMeta, error) {
	cl, err := db.client()
	if err != nil {
		return topicMeta{}, err
	}
	created := false
	deadline := time.Now().Add(db.cfg.Timeout)
	for attempt := 0; ; attempt++ {
		m, terr := metadataOf(ctx, cl, name)
		if terr == nil {
			return m, nil
		}
		switch {
		case forbidden(terr):
			return topicMeta{}, fmt.Errorf("metadata of topic %q: %w", name, classify(terr))
		case errors.Is(terr, kerr.UnknownTopicOrPartition) && create && !created:
			if err := db.createTopic(ctx, name); err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
				return topicMeta{}, classify(err)
			}
			created = true
		case errors.Is(terr, kerr.UnknownTopicOrPartition) && !create:
			return topicMeta{}, fmt.Errorf("topic %q does not exist (%s=false): %w", name, KeyCreateTopic, drivers.ErrNotFound)
		}
		if time.Now().After(deadline) {
			return topicMeta{}, fmt.Errorf("metadata of topic %q after %v: %w", name, db.cfg.Timeout, classify(terr))
		}
		if err := sleepCtx(ctx, backoff(attempt)); err != nil {
			return topicMeta{}, fmt.Errorf("metadata of topic %q: %w", name, err)
		}
	}
}

// metadataOf asks for topic name's metadata; the error says why it is not
// usable yet (unknown topic, a partition without leader, no answer).
func metadataOf(ctx context.Context, cl *kgo.Client, name string) (topicMeta, error) {
	req := kmsg.NewPtrMetadataRequest()
	rt := kmsg.NewMetadataRequestTopic()
	rt.Topic = kmsg.StringPtr(name)
	req.Topics = append(req.Topics, rt)
	res, err := req.RequestWith(ctx, cl)
	if err != nil {
		return topicMeta{}, err
	}
	if len(res.Topics) != 1 {
		return topicMeta{}, fmt.Errorf("metadata answer has %d topics: %w", len(res.Topics), kerr.UnknownTopicOrPartition)
	}
	t := res.Topics[0]
	if err := kerr.ErrorForCode(t.ErrorCode); err != nil {
		return topicMeta{}, err
	}
	if len(t.Partitions) == 0 {
		return topicMeta{}, kerr.LeaderNotAvailable
	}
	m := topicMeta{id: t.TopicID, leaders: make([]int32, len(t.Partitions)), epochs: make([]int32, len(t.Partitions))}
	for _, p := range t.Partitions {
		if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
			return topicMeta{}, fmt.Errorf("partition %d: %w", p.Partition, err)
		}
		if p.Leader < 0 || int(p.Partition) >= len(m.leaders) {
			return topicMeta{}, fmt.Errorf("partition %d: %w", p.Partition, kerr.LeaderNotAvailable)
		}
		m.leaders[p.Partition], m.epochs[p.Partition] = p.Leader, p.LeaderEpoch
	}
	return m, nil
}

func (db *DB) createTopic(ctx context.Context, name string) error {
	cl, err := db.client()
	if err != nil {
		return err
	}
	req := kmsg.NewPtrCreateTopicsRequest()
	req.TimeoutMillis = int32(db.cfg.Timeout.Milliseconds())
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = name, int32(db.cfg.Partitions), int16(db.cfg.Replication)
	c := kmsg.NewCreateTopicsRequestTopicConfig()
	c.Name, c.Value = "max.message.bytes", kmsg.StringPtr(strconv.FormatInt(db.cfg.MaxMessageBytes, 10))
	rt.Configs = append(rt.Configs, c)
	req.Topics = append(req.Topics, rt)
	res, err := req.RequestWith(ctx, cl)
	if err == nil && len(res.Topics) == 1 {
		err = kerr.ErrorForCode(res.Topics[0].ErrorCode)
	}
	if err != nil {
		return fmt.Errorf("create topic %q: %w", name, err)
	}
	return nil
}

// CreateTable creates topic table with kafka.partitions partitions (splits
// are ignored: Kafka partitions by key hash) and max.message.bytes set to
// kafka.maxmessagebytes.
func (db *DB) CreateTable(ctx context.Context, table string, _ [][]byte, ifMissing bool) error {
	err := db.createTopic(ctx, table)
	if ifMissing && errors.Is(err, kerr.TopicAlreadyExists) {
		return nil
	}
	return err
}

// DropTable deletes topic table and forgets its index.
func (db *DB) DropTable(ctx context.Context, table string) error {
	cl, err := db.client()
	if err != nil {
		return err
	}
	req := kmsg.NewPtrDeleteTopicsRequest()
	req.TimeoutMillis = int32(db.cfg.Timeout.Milliseconds())
	req.TopicNames = []string{table}
	rt := kmsg.NewDeleteTopicsRequestTopic()
	rt.Topic = kmsg.StringPtr(table)
	req.Topics = append(req.Topics, rt)
	res, err := req.RequestWith(ctx, cl)
	if err == nil && len(res.Topics) == 1 {
		err = kerr.ErrorForCode(res.Topics[0].ErrorCode)
	}
	db.mu.Lock()
	t := db.topics[table]
	delete(db.topics, table)
	db.mu.Unlock()
	db.capMu.Lock()
	delete(db.caps, table)
	db.capMu.Unlock()
	if t != nil {
		t.close()
	}
	for _, c := range []*kgo.Client{db.prod, db.big} {
		if c != nil {
			c.PurgeTopicsFromClient(table)
		}
	}
	if err != nil {
		return fmt.Errorf("delete topic %q: %w", table, err)
	}
	return nil
}

// offsets lists the log start (earliest) or end (latest: the high
// watermark) offset of every partition of topic t.
func (db *DB) offsets(ctx context.Context, t *topic, latest bool) ([]int64, error) {
	cl, err := db.client()
	if err != nil {
		return nil, err
	}
	n := len(t.meta().leaders)
	out := make([]int64, n)
	deadline := time.Now().Add(db.cfg.Timeout)
	for attempt := 0; ; attempt++ {
		req := kmsg.NewPtrListOffsetsRequest()
		req.ReplicaID = -1
		rt := kmsg.NewListOffsetsRequestTopic()
		rt.Topic = t.name
		for p := range n {
			rp := kmsg.NewListOffsetsRequestTopicPartition()
			rp.Partition, rp.Timestamp = int32(p), -2
			if latest {
				rp.Timestamp = -1
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
		res, err := req.RequestWith(ctx, cl)
		if err == nil {
			got := 0
			for _, rt := range res.Topics {
				for _, rp := range rt.Partitions {
					if e := kerr.ErrorForCode(rp.ErrorCode); e != nil {
						err = fmt.Errorf("partition %d: %w", rp.Partition, e)
					} else if int(rp.Partition) < n {
						out[rp.Partition] = rp.Offset
						got++
					}
				}
			}
			if err == nil && got == n {
				return out, nil
			}
			if err == nil {
				err = fmt.Errorf("offsets of %d of %d partitions", got, n)
			}
		}
		if !retriable(err) || time.Now().After(deadline) {
			return nil, fmt.Errorf("list offsets of topic %q: %w", t.name, classify(err))
		}
		if err := sleepCtx(ctx, backoff(attempt)); err != nil {
			return nil, err
		}
	}
}

// backoff is the wait before retry attempt (from 0): 20 ms growing to
// 500 ms.
func backoff(attempt int) time.Duration {
	return time.Duration(min(20<<min(attempt, 5), 500)) * time.Millisecond
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retriable reports whether err may go away by trying again: a retriable
// Kafka error, or the network (a broker restarting, a leader moving).
func retriable(err error) bool {
	if err == nil {
		return false
	}
	if kerr.IsRetriable(err) {
		return true
	}
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return false
	}
	return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, kgo.ErrClientClosed)
}

// classify marks network failures, timeouts and retriable Kafka errors
// that outlasted their retries as SERVICE_UNAVAILABLE; other Kafka errors
// stay ERROR.
func classify(err error) error {
	var ke *kerr.Error
	switch {
	case forbidden(err):
		return &drivers.StatusError{Status: drivers.Forbidden, Err: err}
	case err == nil, errors.Is(err, drivers.ErrUnavailable), errors.Is(err, context.Canceled):
		return err
	case errors.As(err, &ke) && !kerr.IsRetriable(err):
		return err
	}
	return errors.Join(err, drivers.ErrUnavailable)
}

// forbidden reports whether err is a Kafka authorization failure
// (TOPIC_AUTHORIZATION_FAILED, GROUP_AUTHORIZATION_FAILED,
// CLUSTER_AUTHORIZATION_FAILED, TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
// DELEGATION_TOKEN_AUTHORIZATION_FAILED): the operation is FORBIDDEN.
func forbidden(err error) bool {
	if err == nil {
		return false
	}
	var se *drivers.StatusError
	if errors.As(err, &se) {
		return false // already classified
	}
	return errors.Is(err, kerr.TopicAuthorizationFailed) || errors.Is(err, kerr.GroupAuthorizationFailed) ||
		errors.Is(err, kerr.ClusterAuthorizationFailed) || errors.Is(err, kerr.TransactionalIDAuthorizationFailed) ||
		errors.Is(err, kerr.DelegationTokenAuthorizationFailed)
}
