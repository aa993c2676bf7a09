package hbclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

// metaRegionName is the fixed name of the single hbase:meta region.
var metaRegionName = []byte("hbase:meta,,1")

// errRegionNotReady: meta has a hole, an offline region or no server for the
// row yet; retried after a backoff.
var errRegionNotReady = errors.New("region not assigned yet")

// maxLookups bounds the hbase:meta lookups in flight at once (Java's
// hbase.client.meta.max.concurrent.locate.per.table, 8).
const maxLookups = 8

// lookupCall is one hbase:meta lookup of a row in flight, shared by every
// caller missing that row meanwhile.
type lookupCall struct {
	done chan struct{} // closed when reg or err is set
	reg  *region
	err  error
}

// locate returns the region of table holding row, from the cache or from
// meta. Concurrent misses on one row share one lookup; lookups of other
// rows run concurrently (at most maxLookups at once), each waiting caller
// only until its context or deadline ends.
func (c *Client) locate(ctx context.Context, table string, row []byte, deadline time.Time) (*region, error) {
	if r := c.cache.get(table, row); r != nil {
		return r, nil
	}
	key := table + "\x00" + string(row)
	c.lookupMu.Lock()
	lc := c.lookups[key]
	if lc == nil {
		lc = &lookupCall{done: make(chan struct{})}
		c.lookups[key] = lc
		go c.runLookup(key, lc, table, append([]byte(nil), row...), deadline)
	}
	c.lookupMu.Unlock()
	var expired <-chan time.Time
	if dl, ok := ctx.Deadline(); !deadline.IsZero() && (!ok || deadline.Before(dl)) {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-lc.done:
		return lc.reg, lc.err
	case <-ctx.Done():
		return nil, fmt.Errorf("locate row %q of %s: %w", row, table, ctx.Err())
	case <-expired:
		return nil, fmt.Errorf("locate row %q of %s: operation deadline passed: %w: %w", row, table, errTimeout, ErrConnection)
	}
}

// runLookup looks row up for lc, bounded by the deadline of the caller that
// started it and by the client's life.
func (c *Client) runLookup(key string, lc *lookupCall, table string, row []byte, deadline time.Time) {
	ctx, cancel := context.WithDeadline(c.life, deadline)
	defer cancel()
	reg, err := c.lookup(ctx, table, row, deadline)
	if err != nil && ctx.Err() != nil && !errors.Is(err, ErrClosed) {
		// The starter's deadline is not its followers': for them this is
		// a timed-out lookup, to be retried.
		err = fmt.Errorf("locate row %q of %s: %w: %w (%v)", row, table, errTimeout, ErrConnection, err)
	}
	c.lookupMu.Lock()
	delete(c.lookups, key)
	c.lookupMu.Unlock()
	lc.reg, lc.err = reg, err
	close(lc.done)
}

// lookup waits for a lookup slot, then reads meta unless a lookup that
// finished meanwhile cached the row's region (prefetched regions often
// answer misses that queued together, at start or after a failure).
func (c *Client) lookup(ctx context.Context, table string, row []byte, deadline time.Time) (*region, error) {
	select {
	case c.lookupSem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("locate row %q of %s: %w", row, table, ctx.Err())
	}
	defer func() { <-c.lookupSem }()
	if r := c.cache.get(table, row); r != nil {
		return r, nil
	}
	return c.lookupMeta(ctx, table, row, deadline)
}

// metaServer returns the address of hbase:meta's RegionServer, reading
// ZooKeeper when it is not cached.
func (c *Client) metaServer(ctx context.Context) (string, error) {
	c.mu.RLock()
	addr := c.metaAddr
	c.mu.RUnlock()
	if addr != "" {
		return addr, nil
	}
	if c.opts.MetaServer != "" {
		return c.opts.MetaServer, nil
	}
	c.stats.zkReads.Add(1)
	data, err := c.readZNode(ctx, "/meta-region-server")
	if err != nil {
		return "", err
	}
	addr, open, err := parseMetaZNode(data)
	if err != nil {
		return "", err
	}
	if !open {
		return "", fmt.Errorf("hbase:meta on %s: %w", addr, errRegionNotReady)
	}
	c.mu.Lock()
	c.metaAddr = addr
	c.mu.Unlock()
	return addr, nil
}

func (c *Client) forgetMeta() {
	c.mu.Lock()
	c.metaAddr = ""
	c.mu.Unlock()
}

// tableOf renders a TableName the way region names spell it.
func tableOf(tn *pb.TableName) string {
	if ns := string(tn.GetNamespace()); ns != "default" && ns != "" {
		return ns + ":" + string(tn.GetQualifier())
	}
	return string(tn.GetQualifier())
}

// metaRow decodes one hbase:meta row into a region (nil if the row has no
// usable regioninfo, e.g. a split parent).
func metaRow(res *pb.Result) (*region, *pb.RegionInfo, error) {
	var info []byte
	var server []byte
	var name []byte
	for _, cell := range res.GetCell() {
		if !bytes.Equal(cell.GetFamily(), []byte("info")) {
			continue
		}
		name = cell.GetRow()
		switch string(cell.GetQualifier()) {
		case "regioninfo":
			info = cell.GetValue()
		case "server":
			server = cell.GetValue()
		}
	}
	if info == nil {
		return nil, nil, nil
	}
	if !bytes.HasPrefix(info, []byte("PBUF")) {
		return nil, nil, fmt.Errorf("meta row %q: regioninfo lacks PBUF magic", name)
	}
	var ri pb.RegionInfo
	if err := proto.Unmarshal(info[4:], &ri); err != nil {
		return nil, nil, fmt.Errorf("meta row %q: regioninfo: %w", name, err)
	}
	r := &region{
		table: tableOf(ri.GetTableName()), name: append([]byte(nil), name...),
		start: ri.GetStartKey(), end: ri.GetEndKey(), id: ri.GetRegionId(), addr: string(server),
	}
	return r, &ri, nil
}

// lookupMeta finds the region of table holding row with a reverse scan of
// hbase:meta (hbase-wire.md §3.4) and caches it together with the other
// usable regions the scan returned.
func (c *Client) lookupMeta(ctx context.Context, table string, row []byte, deadline time.Time) (*region, error) {
	addr, err := c.metaServer(ctx)
	if err != nil {
		return nil, err
	}
	start := make([]byte, 0, len(table)+len(row)+16)
	start = append(append(append(append(start, table...), ','), row...), ",99999999999999"...)
	req := &pb.ScanRequest{
		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: metaRegionName},
		Scan: &pb.Scan{
			Column:         []*pb.Column{{Family: []byte("info")}},
			StartRow:       start,
			StopRow:        []byte(table + ",,"),
			IncludeStopRow: proto.Bool(true),
			Reversed:       proto.Bool(true),
			ReadType:       pb.Scan_PREAD.Enum(),
		},
		NumberOfRows: proto.Uint32(10),
		CloseScanner: proto.Bool(true),
	}
	var resp pb.ScanResponse
	c.stats.lookups.Add(1)
	n := c.stats.inFlight.Add(1)
	for m := c.stats.maxInFlight.Load(); n > m && !c.stats.maxInFlight.CompareAndSwap(m, n); m = c.stats.maxInFlight.Load() {
	}
	err = c.callRegionServer(ctx, addr, "Scan", req, &resp, deadline)
	c.stats.inFlight.Add(-1)
	if err != nil {
		if a := classify(err); a == actRelocate || a == actReconnect || a == actServerDown {
			c.forgetMeta()
			if a == actReconnect {
				c.dropServer(addr, connOf(err))
			}
		}
		return nil, fmt.Errorf("scan hbase:meta on %s: %w", addr, err)
	}
	var found *region
	for i, res := range resp.GetResults() {
		r, ri, err := metaRow(res)
		if err != nil {
			return nil, err
		}
		if r == nil || ri.GetSplit() || ri.GetReplicaId() != 0 {
			continue
		}
		if r.table != table {
			if i == 0 {
				return nil, fmt.Errorf("table %q: %w", table, ErrTableNotFound)
			}
			break
		}
		if ri.GetOffline() || r.addr == "" {
			if found == nil && i == 0 {
				return nil, fmt.Errorf("region %q offline or unassigned: %w", r.name, errRegionNotReady)
			}
			continue
		}
		c.cache.put(r)
		if found == nil {
			if !r.contains(row) {
				return nil, fmt.Errorf("hole in hbase:meta for row %q of %q: %w", row, table, errRegionNotReady)
			}
			found = r
		}
	}
	if found == nil {
		if len(resp.GetResults()) == 0 {
			return nil, fmt.Errorf("table %q: %w", table, ErrTableNotFound)
		}
		return nil, fmt.Errorf("row %q of %q: %w", row, table, errRegionNotReady)
	}
	return found, nil
}

// callRegionServer makes one ClientService call on hbase:meta with
// generated messages (for the paths where allocation does not matter), at
// the system tables' priority like Java's client.
func (c *Client) callRegionServer(ctx context.Context, addr, method string, req, resp proto.Message, deadline time.Time) error {
	rc, err := c.regionConn(ctx, addr, deadline)
	if err != nil {
		return err
	}
	return callProto(ctx, rc, method, prioSystem, req, resp, c.rpcTimeout(deadline))
}

func callProto(ctx context.Context, rc *rpcConn, method string, prio priority, req, resp proto.Message, timeout time.Duration) error {
	param, err := proto.Marshal(req)
	if err != nil {
		return fmt.Errorf("encode %s request: %w", method, err)
	}
	cl, err := rc.callPrio(ctx, method, prio, param, nil, timeout)
	if err != nil {
		return err
	}
	defer cl.release()
	if err := proto.Unmarshal(cl.resp.body, resp); err != nil {
		return fmt.Errorf("decode %s response from %s: %w", method, rc.addr, err)
	}
	// A scan on a codec connection answers cell counts and a cell block:
	// turn them into inline Results, which the callers read.
	if sr, ok := resp.(*pb.ScanResponse); ok && len(sr.CellsPerResult) > 0 {
		results, err := cellResults(sr.CellsPerResult, cl.resp.cells)
		if err != nil {
			return fmt.Errorf("decode %s response from %s: %w", method, rc.addr, err)
		}
		sr.Results, sr.CellsPerResult = append(sr.Results, results...), nil
	}
	return nil
}
