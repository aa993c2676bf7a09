package hbclient

import (
	"context"
	"fmt"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

// Multi applies muts to table with batched Multi RPCs: mutations are grouped
// by RegionServer and region, each server gets one request (servers are
// written in parallel), and the mutations that fail with a retryable error
// are re-located and re-sent until the context's deadline (or the operation
// timeout). It returns nil when every mutation was applied, else an error
// saying how many were not. The mutations are only read during the call.
func (c *Client) Multi(ctx context.Context, table string, muts []Mutation) error {
	for i := range muts {
		if err := muts[i].check(); err != nil {
			return fmt.Errorf("multi on %s: %w", table, err)
		}
	}
	pending := make([]int, len(muts))
	for i := range pending {
		pending[i] = i
	}
	rt := c.retrier(ctx)
	for len(pending) > 0 {
		failed, err := c.multi1(ctx, table, muts, pending, rt.deadline)
		if len(failed) == 0 {
			return nil
		}
		pending = failed
		if rerr := rt.retry(ctx, err, nil); rerr != nil { // (multi1 updated the caches)
			return fmt.Errorf("multi on %s: %d of %d mutations failed: %w", table, len(pending), len(muts), rerr)
		}
	}
	return nil
}

type regionBatch struct {
	reg  *region
	idxs []int
}

type multiFailure struct {
	idxs []int
	err  error
	reg  *region
}

// multi1 sends one round of pending mutations. It returns the indexes that
// failed and one representative error (the permanent one if any); the
// caches are already updated for every failure.
func (c *Client) multi1(ctx context.Context, table string, muts []Mutation, pending []int, deadline time.Time) (failed []int, err error) {
	servers := make(map[string][]*regionBatch)
	byRegion := make(map[*region]*regionBatch)
	for _, i := range pending {
		r, lerr := c.locate(ctx, table, muts[i].Row, deadline)
		if lerr != nil {
			failed = append(failed, i)
			if err == nil || classify(lerr) == actFail {
				err = lerr
			}
			continue
		}
		b := byRegion[r]
		if b == nil {
			b = &regionBatch{reg: r}
			byRegion[r] = b
			servers[r.addr] = append(servers[r.addr], b)
		}
		b.idxs = append(b.idxs, i)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var fails []multiFailure
	for addr, batches := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := c.multiServer(ctx, addr, muts, batches, deadline)
			mu.Lock()
			fails = append(fails, f...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, f := range fails {
		failed = append(failed, f.idxs...)
		// Every failure updates the caches (a moved region, a dead
		// server), not just the representative one.
		a := c.onError(f.err, f.reg)
		if err == nil || a == actFail || (classify(err) != actFail && a == actReconnect) {
			err = f.err
		}
	}
	return failed, err
}

// multiServer sends one MultiRequest with batches to addr and returns the
// failures.
func (c *Client) multiServer(ctx context.Context, addr string, muts []Mutation, batches []*regionBatch, deadline time.Time) []multiFailure {
	all := func(err error) []multiFailure {
		f := make([]multiFailure, len(batches))
		for i, b := range batches {
			f[i] = multiFailure{idxs: b.idxs, err: err, reg: b.reg}
		}
		return f
	}
	rc, err := c.regionConn(ctx, addr, deadline)
	if err != nil {
		return all(err)
	}
	p := getFrame(0)
	var q *[]byte // the cell block, on a codec connection
	var cells []byte
	if rc.codec {
		q = getFrame(0)
		*p, *q = appendMultiRequestCells((*p)[:0], (*q)[:0], muts, batches)
		cells = *q
	} else {
		*p = appendMultiRequest((*p)[:0], muts, batches)
	}
	cl, err := rc.callCells(ctx, "Multi", *p, cells, c.rpcTimeout(deadline))
	framePool.Put(p)
	if q != nil {
		framePool.Put(q)
	}
	if err != nil {
		return all(err)
	}
	if multiResponseClean(cl.resp.body, batches) {
		cl.release()
		return nil
	}
	var resp pb.MultiResponse
	err = proto.Unmarshal(cl.resp.body, &resp)
	cl.release()
	if err != nil {
		return all(fmt.Errorf("decode multi response from %s: %w", addr, err))
	}
	rars := resp.GetRegionActionResult()
	if len(rars) != len(batches) {
		return all(fmt.Errorf("multi response from %s has %d region results for %d regions: %w", addr, len(rars), len(batches), errCorrupt))
	}
	var fails []multiFailure
	for i, rar := range rars {
		b := batches[i]
		if ex := rar.GetException(); ex != nil {
			fails = append(fails, multiFailure{idxs: b.idxs, err: pairError(ex), reg: b.reg})
			continue
		}
		seen := 0
		for _, roe := range rar.GetResultOrException() {
			ex := roe.GetException()
			pos := int(roe.GetIndex()) - 1
			if pos < 0 || pos >= len(b.idxs) {
				continue
			}
			seen++
			if ex != nil {
				fails = append(fails, multiFailure{idxs: []int{b.idxs[pos]}, err: pairError(ex), reg: b.reg})
			}
		}
		if seen != len(b.idxs) {
			fails = append(fails, multiFailure{idxs: b.idxs, err: fmt.Errorf("multi response from %s: %d results for %d actions: %w", addr, seen, len(b.idxs), errCorrupt), reg: b.reg})
		}
	}
	return fails
}

// multiResponseClean reports, without allocating, whether the serialized
// MultiResponse b holds for every batch, in order, one result per action
// and no exception: the common case. Otherwise the caller decodes it fully.
func multiResponseClean(b []byte, batches []*regionBatch) bool {
	i := 0
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		if num != 1 || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return false
			}
			b = b[n:]
			continue
		}
		rar, n := protowire.ConsumeBytes(b)
		if n < 0 || i >= len(batches) {
			return false
		}
		b = b[n:]
		results := 0
		for len(rar) > 0 {
			num, typ, n := protowire.ConsumeTag(rar)
			if n < 0 || num == 2 { // 2: region-level exception
				return false
			}
			rar = rar[n:]
			if num == 1 && typ == protowire.BytesType {
				roe, n := protowire.ConsumeBytes(rar)
				if n < 0 || hasField(roe, 3) { // 3: per-action exception
					return false
				}
				rar = rar[n:]
				results++
				continue
			}
			if n = protowire.ConsumeFieldValue(num, typ, rar); n < 0 {
				return false
			}
			rar = rar[n:]
		}
		if results != len(batches[i].idxs) {
			return false
		}
		i++
	}
	return i == len(batches)
}

// hasField reports whether message b has field num (or does not parse).
func hasField(b []byte, num protowire.Number) bool {
	for len(b) > 0 {
		f, typ, n := protowire.ConsumeTag(b)
		if n < 0 || f == num {
			return true
		}
		b = b[n:]
		if n = protowire.ConsumeFieldValue(f, typ, b); n < 0 {
			return true
		}
		b = b[n:]
	}
	return false
}

// pairError turns a per-action or per-region exception into a RemoteError;
// NameBytesPair carries no do_not_retry flag, so known permanent classes are
// marked here.
func pairError(p *pb.NameBytesPair) error {
	re := &RemoteError{Class: p.GetName(), Message: string(p.GetValue())}
	re.Host, re.Port = parseMoved(re.Class, re.Message)
	if a, ok := exceptionActions[re.Class]; ok && a == actFail {
		re.DoNotRetry = true
	}
	return re
}

// appendMultiRequest encodes a MultiRequest with one RegionAction per batch;
// action indexes are 1-based positions within the batch.
func appendMultiRequest(b []byte, muts []Mutation, batches []*regionBatch) []byte {
	for _, rb := range batches {
		size := sizeBytesField(1, regionSpecSize(rb.reg.name))
		for pos, i := range rb.idxs {
			ms, _ := mutationSize(&muts[i])
			size += sizeBytesField(3, sizeVarintField(1, uint64(pos+1))+sizeBytesField(2, ms))
		}
		b = appendLen(b, 1, size)
		b = appendRegionSpec(b, 1, rb.reg.name)
		for pos, i := range rb.idxs {
			ms, cv := mutationSize(&muts[i])
			b = appendLen(b, 3, sizeVarintField(1, uint64(pos+1))+sizeBytesField(2, ms))
			b = appendVarintField(b, 1, uint64(pos+1))
			b = appendLen(b, 2, ms)
			b = appendMutation(b, &muts[i], cv)
		}
	}
	return b
}

// appendMultiRequestCells is appendMultiRequest for a codec connection:
// mutations with cells go metadata-only into b, their cells, in action
// order, into the cell block cells; whole-row deletes stay inline.
func appendMultiRequestCells(b, cells []byte, muts []Mutation, batches []*regionBatch) ([]byte, []byte) {
	msize := func(m *Mutation) int {
		if m.usesCells() {
			return mutationNoDataSize(m)
		}
		n, _ := mutationSize(m)
		return n
	}
	for _, rb := range batches {
		size := sizeBytesField(1, regionSpecSize(rb.reg.name))
		for pos, i := range rb.idxs {
			size += sizeBytesField(3, sizeVarintField(1, uint64(pos+1))+sizeBytesField(2, msize(&muts[i])))
		}
		b = appendLen(b, 1, size)
		b = appendRegionSpec(b, 1, rb.reg.name)
		for pos, i := range rb.idxs {
			m := &muts[i]
			ms := msize(m)
			b = appendLen(b, 3, sizeVarintField(1, uint64(pos+1))+sizeBytesField(2, ms))
			b = appendVarintField(b, 1, uint64(pos+1))
			b = appendLen(b, 2, ms)
			if m.usesCells() {
				b = appendMutationNoData(b, m)
				cells = appendMutationCells(cells, m)
			} else {
				_, cv := mutationSize(m)
				b = appendMutation(b, m, cv)
			}
		}
	}
	return b, cells
}
