package hbclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

// tableName splits "ns:table" (or "table" in namespace default).
func tableName(table string) *pb.TableName {
	ns, q := "default", table
	if i := strings.IndexByte(table, ':'); i >= 0 {
		ns, q = table[:i], table[i+1:]
	}
	return &pb.TableName{Namespace: []byte(ns), Qualifier: []byte(q)}
}

// masterConn returns the live MasterService connection, locating the active
// master in ZooKeeper when needed.
func (c *Client) masterConn(ctx context.Context) (*rpcConn, error) {
	c.mu.RLock()
	m, closed := c.master, c.closed
	c.mu.RUnlock()
	if closed {
		return nil, ErrClosed
	}
	if m != nil && m.alive() {
		return m, nil
	}
	data, err := c.readZNode(ctx, "/master")
	if err != nil {
		return nil, err
	}
	addr, err := parseMasterZNode(data)
	if err != nil {
		return nil, err
	}
	m, err = dialConn(ctx, &c.opts, addr, "MasterService", false, nil)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	old := c.master
	c.master = m
	c.mu.Unlock()
	if old != nil {
		old.close()
	}
	return m, nil
}

func (c *Client) dropMaster(m *rpcConn) {
	c.mu.Lock()
	if c.master == m {
		c.master = nil
	}
	c.mu.Unlock()
	m.close()
}

// masterCall makes one MasterService call, retrying what is retryable
// (master failover, PleaseHold, connection errors) until the deadline.
func (c *Client) masterCall(ctx context.Context, method string, req, resp proto.Message) error {
	rt := c.retrier(ctx)
	for {
		m, err := c.masterConn(ctx)
		if err == nil {
			if err = callProto(ctx, m, method, m.prio, req, resp, c.rpcTimeout(rt.deadline)); err == nil {
				return nil
			}
			if classify(err) == actReconnect {
				c.dropMaster(m)
			}
		}
		if err = rt.retry(ctx, err, nil); err != nil {
			return fmt.Errorf("master %s: %w", method, err)
		}
	}
}

// waitProcedure polls getProcedureResult until the procedure finishes.
func (c *Client) waitProcedure(ctx context.Context, what string, procID uint64) error {
	pause := 50 * time.Millisecond
	deadline := c.deadline(ctx)
	for {
		var resp pb.GetProcedureResultResponse
		if err := c.masterCall(ctx, "getProcedureResult", &pb.GetProcedureResultRequest{ProcId: proto.Uint64(procID)}, &resp); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		switch resp.GetState() {
		case pb.GetProcedureResultResponse_FINISHED:
			if ex := resp.GetException(); ex != nil {
				g := ex.GetGenericException()
				return fmt.Errorf("%s: procedure %d failed: %w", what, procID,
					&RemoteError{Class: g.GetClassName(), Message: g.GetMessage(), DoNotRetry: true})
			}
			return nil
		case pb.GetProcedureResultResponse_NOT_FOUND:
			return fmt.Errorf("%s: procedure %d unknown to the master", what, procID)
		}
		if !sleepUntil(ctx, pause, deadline) {
			return fmt.Errorf("%s: procedure %d still running at the deadline", what, procID)
		}
		pause = min(pause*2, time.Second)
	}
}

// CreateTable creates table with the given column families, pre-split at
// splits (sorted and de-duplicated here; empty keys are refused), and waits
// until the master reports the creation procedure finished. An existing
// table yields an error wrapping ErrTableExists.
func (c *Client) CreateTable(ctx context.Context, table string, families []string, splits [][]byte) error {
	if len(families) == 0 {
		return fmt.Errorf("create table %q: no column family", table)
	}
	keys := slices.Clone(splits)
	slices.SortFunc(keys, bytes.Compare)
	keys = slices.CompactFunc(keys, bytes.Equal)
	for _, k := range keys {
		if len(k) == 0 {
			return fmt.Errorf("create table %q: empty split key", table)
		}
	}
	schema := &pb.TableSchema{TableName: tableName(table)}
	for _, f := range families {
		schema.ColumnFamilies = append(schema.ColumnFamilies, &pb.ColumnFamilySchema{Name: []byte(f)})
	}
	req := &pb.CreateTableRequest{
		TableSchema: schema, SplitKeys: keys,
		NonceGroup: proto.Uint64(rand.Uint64()), Nonce: proto.Uint64(rand.Uint64()),
	}
	var resp pb.CreateTableResponse
	if err := c.masterCall(ctx, "CreateTable", req, &resp); err != nil {
		return fmt.Errorf("create table %q: %w", table, err)
	}
	c.cache.removeTable(table)
	return c.waitProcedure(ctx, fmt.Sprintf("create table %q", table), resp.GetProcId())
}

// DisableTable disables table and waits; an already disabled table is fine.
func (c *Client) DisableTable(ctx context.Context, table string) error {
	req := &pb.DisableTableRequest{TableName: tableName(table), NonceGroup: proto.Uint64(rand.Uint64()), Nonce: proto.Uint64(rand.Uint64())}
	var resp pb.DisableTableResponse
	err := c.masterCall(ctx, "DisableTable", req, &resp)
	var re *RemoteError
	if errors.As(err, &re) && re.Class == pkg+"TableNotEnabledException" {
		return nil
	}
	if err != nil {
		return fmt.Errorf("disable table %q: %w", table, err)
	}
	return c.waitProcedure(ctx, fmt.Sprintf("disable table %q", table), resp.GetProcId())
}

// DeleteTable deletes a disabled table and waits.
func (c *Client) DeleteTable(ctx context.Context, table string) error {
	req := &pb.DeleteTableRequest{TableName: tableName(table), NonceGroup: proto.Uint64(rand.Uint64()), Nonce: proto.Uint64(rand.Uint64())}
	var resp pb.DeleteTableResponse
	if err := c.masterCall(ctx, "DeleteTable", req, &resp); err != nil {
		return fmt.Errorf("delete table %q: %w", table, err)
	}
	c.cache.removeTable(table)
	err := c.waitProcedure(ctx, fmt.Sprintf("delete table %q", table), resp.GetProcId())
	c.cache.removeTable(table)
	return err
}

// DropTable disables and deletes table. A missing table yields an error
// wrapping ErrTableNotFound.
func (c *Client) DropTable(ctx context.Context, table string) error {
	if err := c.DisableTable(ctx, table); err != nil {
		return err
	}
	return c.DeleteTable(ctx, table)
}

// TableExists asks the master whether table exists.
func (c *Client) TableExists(ctx context.Context, table string) (bool, error) {
	req := &pb.GetTableDescriptorsRequest{TableNames: []*pb.TableName{tableName(table)}}
	var resp pb.GetTableDescriptorsResponse
	err := c.masterCall(ctx, "GetTableDescriptors", req, &resp)
	if errors.Is(err, ErrTableNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("table %q exists: %w", table, err)
	}
	return len(resp.GetTableSchema()) > 0, nil
}

// Regions returns the number of regions of table in hbase:meta (a forward
// scan of meta; for checking pre-splits).
func (c *Client) Regions(ctx context.Context, table string) (int, error) {
	addr, err := c.metaServer(ctx)
	if err != nil {
		return 0, err
	}
	req := &pb.ScanRequest{
		Region: &pb.RegionSpecifier{Type: pb.RegionSpecifier_REGION_NAME.Enum(), Value: metaRegionName},
		Scan: &pb.Scan{
			Column: []*pb.Column{{Family: []byte("info")}},
			// hbase:meta sorts with its own comparator (table, start key,
			// id); these are the Java client's bounds for one table.
			StartRow: []byte(table + ",,"),
			StopRow:  []byte(table + " ,,"),
		},
		NumberOfRows: proto.Uint32(100000),
		CloseScanner: proto.Bool(true),
	}
	var resp pb.ScanResponse
	if err := c.callRegionServer(ctx, addr, "Scan", req, &resp, c.deadline(ctx)); err != nil {
		return 0, fmt.Errorf("regions of %q: %w", table, err)
	}
	n := 0
	for _, res := range resp.GetResults() {
		r, ri, err := metaRow(res)
		if err != nil {
			return 0, err
		}
		if r != nil && r.table == table && !ri.GetSplit() && !ri.GetOffline() {
			n++
		}
	}
	return n, nil
}
