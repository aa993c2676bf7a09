package cluster

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// HBase runs admin actions on the cluster's HBase through the long-lived Java helper
// (testenv/java/ClusterAdmin.java, HBase's own Admin API). Servers are node names
// (hbase-rs1..3); regions are encoded region names.
type HBase struct{ c *Cluster }

// HBase returns the HBase actions of c.
func (c *Cluster) HBase() HBase { return HBase{c} }

func (h HBase) do(ctx context.Context, args ...string) ([]string, error) {
	return h.c.do(ctx, "hbase", args...)
}

// Region is one region of a table.
type Region struct {
	Encoded    string // encoded region name (32 hex digits)
	Node       string // the RegionServer that has it open (asked of each server), "" if none
	Start, End string // keys as the helper prints them: bytes outside '!'..'~' as \xNN, "" empty
}

// Regions returns the regions of table (split parents left out), in key order.
func (h HBase) Regions(ctx context.Context, table string) ([]Region, error) {
	lines, err := h.do(ctx, "regions", table)
	if err != nil {
		return nil, err
	}
	return parseRegions(lines)
}

func parseRegions(lines []string) ([]Region, error) {
	var l []Region
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("cluster: regions: bad line %q", line)
		}
		l = append(l, Region{Encoded: f[0], Node: dash(f[1]), Start: unquote(f[2]), End: unquote(f[3])})
	}
	return l, nil
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

func unquote(s string) string {
	if s == `""` {
		return ""
	}
	return s
}

// Server is one live RegionServer.
type Server struct {
	Node      string // hbase-rsN, or host:port for a server testenv does not know
	Addr      string // host:port as registered (localhost:2602N)
	StartCode int64
	Regions   int // regions open on it (all tables)
}

// Servers returns the live RegionServers.
func (h HBase) Servers(ctx context.Context) ([]Server, error) {
	lines, err := h.do(ctx, "servers")
	if err != nil {
		return nil, err
	}
	var l []Server
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("cluster: servers: bad line %q", line)
		}
		sc, err1 := strconv.ParseInt(f[2], 10, 64)
		n, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("cluster: servers: bad line %q", line)
		}
		l = append(l, Server{Node: f[0], Addr: f[1], StartCode: sc, Regions: n})
	}
	return l, nil
}

// Locate returns the RegionServer and region that hbase:meta names for row of table.
func (h HBase) Locate(ctx context.Context, table, row string) (node, encoded string, err error) {
	lines, err := h.do(ctx, "locate", table, row)
	if err != nil {
		return "", "", err
	}
	if len(lines) != 1 || len(strings.Fields(lines[0])) != 2 {
		return "", "", fmt.Errorf("cluster: locate: bad answer %q", lines)
	}
	f := strings.Fields(lines[0])
	return f[0], f[1], nil
}

// Move is one region move.
type Move struct{ Region, From, To string }

func parseMoves(lines []string) ([]Move, error) {
	var l []Move
	for _, line := range lines {
		// "moved ENCODED FROM -> TO"
		f := strings.Fields(line)
		if len(f) != 5 || f[0] != "moved" || f[3] != "->" {
			return nil, fmt.Errorf("cluster: move: bad line %q", line)
		}
		l = append(l, Move{Region: f[1], From: dash(f[2]), To: dash(f[4])})
	}
	return l, nil
}

// MoveRegion moves one region to the RegionServer node ("" lets HBase choose) and
// waits until it is open there.
func (h HBase) MoveRegion(ctx context.Context, encoded, node string) (Move, error) {
	if node == "" {
		node = "any"
	}
	lines, err := h.do(ctx, "move", encoded, node)
	if err != nil {
		return Move{}, err
	}
	m, err := parseMoves(lines)
	if err != nil || len(m) != 1 {
		return Move{}, fmt.Errorf("cluster: move: bad answer %q", lines)
	}
	return m[0], nil
}

// MoveRegions moves n randomly chosen regions of table, each to a random other live
// RegionServer, one after another (each waits until the region is open again).
func (h HBase) MoveRegions(ctx context.Context, table string, n int) ([]Move, error) {
	lines, err := h.do(ctx, "shuffle", table, strconv.Itoa(n))
	if err != nil {
		return nil, err
	}
	return parseMoves(lines)
}

// Split splits the regions of table (HBase picks each split point; regions without
// data do not split) or, with row != "", the region holding row at row; it waits until
// the daughters are open.
func (h HBase) Split(ctx context.Context, table, row string) error {
	args := []string{"split", table}
	if row != "" {
		args = append(args, row)
	}
	_, err := h.do(ctx, args...)
	return err
}

// SplitRegion splits one region at row ("": its midpoint) and waits for the daughters.
func (h HBase) SplitRegion(ctx context.Context, encoded, row string) error {
	args := []string{"split-region", encoded}
	if row != "" {
		args = append(args, row)
	}
	_, err := h.do(ctx, args...)
	return err
}

// Balance is what one balancer run did.
type Balance struct {
	Ran             bool
	Moves, Executed int
}

// Balance runs the balancer once (it must be on, as it is by default).
func (h HBase) Balance(ctx context.Context) (Balance, error) {
	lines, err := h.do(ctx, "balance")
	if err != nil {
		return Balance{}, err
	}
	var b Balance
	if len(lines) != 1 {
		return b, fmt.Errorf("cluster: balance: bad answer %q", lines)
	}
	if _, err := fmt.Sscanf(lines[0], "ran=%t moves=%d executed=%d", &b.Ran, &b.Moves, &b.Executed); err != nil {
		return b, fmt.Errorf("cluster: balance: bad answer %q: %v", lines[0], err)
	}
	return b, nil
}

// SetBalancer switches the balancer on or off and returns its previous state.
func (h HBase) SetBalancer(ctx context.Context, on bool) (was bool, err error) {
	arg := "off"
	if on {
		arg = "on"
	}
	lines, err := h.do(ctx, "balancer", arg)
	if err != nil {
		return false, err
	}
	if len(lines) != 1 || (lines[0] != "was on" && lines[0] != "was off") {
		return false, fmt.Errorf("cluster: balancer: bad answer %q", lines)
	}
	return lines[0] == "was on", nil
}

// Unassign closes one region and waits until no live server has it open.
func (h HBase) Unassign(ctx context.Context, encoded string) error {
	_, err := h.do(ctx, "unassign", encoded)
	return err
}

// Assign opens one region, waits until it is open and returns the server.
func (h HBase) Assign(ctx context.Context, encoded string) (string, error) {
	lines, err := h.do(ctx, "assign", encoded)
	if err != nil {
		return "", err
	}
	if len(lines) != 1 {
		return "", fmt.Errorf("cluster: assign: bad answer %q", lines)
	}
	return lines[0], nil
}

// parsePerServer parses "N regions open: hbase-rs1=8 hbase-rs2=8 ..." (after an
// optional "created TABLE: ").
func parsePerServer(lines []string) (map[string]int, error) {
	if len(lines) != 1 {
		return nil, fmt.Errorf("cluster: bad answer %q", lines)
	}
	_, rest, ok := strings.Cut(lines[0], "regions open:")
	if !ok {
		return nil, fmt.Errorf("cluster: bad answer %q", lines[0])
	}
	m := map[string]int{}
	for _, kv := range strings.Fields(rest) {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil {
			return nil, fmt.Errorf("cluster: bad answer %q", lines[0])
		}
		m[k] = n
	}
	return m, nil
}

// CreateTable creates table with one column family, pre-split into regions regions at
// YCSB's split points ("user" + (1000 + i*8999/(regions-1)) for i = 1..regions-1, as
// testenv/java/CreateTable.java),
// waits until every region is open and returns the open regions per server. An existing
// table is an error unless drop (then it is dropped first).
func (h HBase) CreateTable(ctx context.Context, table, family string, regions int, drop bool) (map[string]int, error) {
	args := []string{"create", table, family, strconv.Itoa(regions)}
	if drop {
		args = append(args, "--drop")
	}
	lines, err := h.do(ctx, args...)
	if err != nil {
		return nil, err
	}
	return parsePerServer(lines)
}

// DropTable disables and deletes table (if it exists).
func (h HBase) DropTable(ctx context.Context, table string) error {
	_, err := h.do(ctx, "drop", table)
	return err
}

// WaitServed waits (at most timeout) until every region of table is open on a live
// server and returns the open regions per server.
func (h HBase) WaitServed(ctx context.Context, table string, timeout time.Duration) (map[string]int, error) {
	lines, err := h.do(ctx, "wait-served", table, seconds(timeout))
	if err != nil {
		return nil, err
	}
	return parsePerServer(lines)
}

// WaitReady waits (at most timeout) for n live RegionServers, hbase:meta assigned and
// readable and no region in transition.
func (h HBase) WaitReady(ctx context.Context, n int, timeout time.Duration) error {
	_, err := h.do(ctx, "wait-ready", strconv.Itoa(n), seconds(timeout))
	return err
}

// Load puts n rows into table with HBase's Java client: row i is prefix, four digits
// 1000-9999 spread by i, then i in 8 digits (prefix "user" spreads them over a
// YCSB-split table); one column family:v.
func (h HBase) Load(ctx context.Context, table, family, prefix string, n int) error {
	_, err := h.do(ctx, "load", table, family, prefix, strconv.Itoa(n))
	return err
}

// Verify reads back the n rows of Load and fails naming how many are missing or wrong.
func (h HBase) Verify(ctx context.Context, table, family, prefix string, n int) error {
	_, err := h.do(ctx, "verify", table, family, prefix, strconv.Itoa(n))
	return err
}
