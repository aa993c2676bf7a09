package hbclient

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/go-zookeeper/zk"
	"google.golang.org/protobuf/proto"

	"github.com/gobench/gobench/drivers/hbase/pb"
)

type nopLogger struct{}

func (nopLogger) Printf(string, ...any) {}

// readZNode reads <parent><name>, bounded by the dial timeout.
func (c *Client) readZNode(ctx context.Context, name string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.DialTimeout)
	defer cancel()
	return readZNode(ctx, c.opts.ZKQuorum, c.opts.ZNodeParent+name)
}

// readZNode reads one znode with a short-lived ZooKeeper session, bounded by
// ctx. A quorum that cannot be reached yields an error wrapping ErrConnection.
func readZNode(ctx context.Context, quorum []string, path string) ([]byte, error) {
	conn, _, err := zk.Connect(quorum, 30*time.Second, zk.WithLogger(nopLogger{}), zk.WithLogInfo(false))
	if err != nil {
		return nil, fmt.Errorf("zookeeper %v: %w: %w", quorum, ErrConnection, err)
	}
	defer conn.Close()
	type res struct {
		data []byte
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		d, _, err := conn.Get(path)
		ch <- res{d, err}
	}()
	select {
	case r := <-ch:
		if errors.Is(r.err, zk.ErrNoNode) {
			return nil, fmt.Errorf("zookeeper %v: znode %s does not exist (is hbase.zookeeper.znode.parent right?): %w", quorum, path, ErrConnection)
		}
		if r.err != nil {
			return nil, fmt.Errorf("zookeeper %v: get %s: %w: %w", quorum, path, ErrConnection, r.err)
		}
		return r.data, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("zookeeper %v: get %s: %w: %w", quorum, path, ErrConnection, ctx.Err())
	}
}

// stripZNodeMeta removes the 0xFF + id-length + id prefix and the PBUF magic
// of an HBase data znode (hbase-wire.md §3.1), returning the protobuf bytes.
func stripZNodeMeta(data []byte) ([]byte, error) {
	if len(data) > 0 && data[0] == 0xFF {
		if len(data) < 5 {
			return nil, fmt.Errorf("znode data of %d bytes: too short", len(data))
		}
		idLen := int(binary.BigEndian.Uint32(data[1:5]))
		if idLen < 0 || 5+idLen > len(data) {
			return nil, fmt.Errorf("znode id length %d exceeds %d bytes of data", idLen, len(data))
		}
		data = data[5+idLen:]
	}
	if !bytes.HasPrefix(data, []byte("PBUF")) {
		return nil, fmt.Errorf("znode data lacks the PBUF magic")
	}
	return data[4:], nil
}

func serverAddr(sn *pb.ServerName) string {
	return net.JoinHostPort(sn.GetHostName(), strconv.Itoa(int(sn.GetPort())))
}

// parseMetaZNode returns the address of hbase:meta's server and whether the
// meta region is open there.
func parseMetaZNode(data []byte) (addr string, open bool, err error) {
	b, err := stripZNodeMeta(data)
	if err != nil {
		return "", false, fmt.Errorf("meta-region-server: %w", err)
	}
	var m pb.MetaRegionServer
	if err := proto.Unmarshal(b, &m); err != nil {
		return "", false, fmt.Errorf("meta-region-server: %w", err)
	}
	st := pb.RegionStateState_OPEN
	if m.State != nil {
		st = m.GetState()
	}
	return serverAddr(m.GetServer()), st == pb.RegionStateState_OPEN, nil
}

// parseMasterZNode returns the active master's address.
func parseMasterZNode(data []byte) (string, error) {
	b, err := stripZNodeMeta(data)
	if err != nil {
		return "", fmt.Errorf("master znode: %w", err)
	}
	var m pb.Master
	if err := proto.Unmarshal(b, &m); err != nil {
		return "", fmt.Errorf("master znode: %w", err)
	}
	return serverAddr(m.GetMaster()), nil
}
