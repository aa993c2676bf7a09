package hbclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// ScanSpec describes a forward scan. Its slices are only read during the
// Scan call.
type ScanSpec struct {
	// Start is the first row (inclusive; nil = table start); Stop the end
	// (exclusive; nil = table end).
	Start, Stop []byte
	// Family restricts the scan to one family (nil = all); Qualifiers to
	// some of its columns (empty = all).
	Family     []byte
	Qualifiers [][]byte
	// Limit stops the scan after this many rows (0 = no limit). The server
	// is told the remaining count (ScanRequest.limit_of_rows), so a scan of
	// N rows within one region is one RPC.
	Limit int
	// Caching is the number of rows asked per RPC (default Limit, capped at
	// 1000, or 100 without a limit).
	Caching int
}

// Scan visits the rows of table selected by s in key order, crossing region
// boundaries, filling res with each row and calling fn with it. res is reset
// for every row; fn must not keep it. If fn returns an error the scan stops
// and Scan returns that error. However a scan ends (done, limit reached,
// fn's error, a failed call, the context's end), the server-side scanner it
// has open is closed (in the background after a failure).
// Region moves and lost scanners are retried by reopening after the last
// row seen.
func (c *Client) Scan(ctx context.Context, table string, s *ScanSpec, res *Result, fn func(*Result) error) error {
	st := scanPool.Get().(*scanState)
	defer st.release()
	st.c, st.table, st.s, st.res, st.fn = c, table, s, res, fn
	st.cur = append(st.cur[:0], s.Start...)
	st.include, st.got = true, 0
	rt := c.retrier(ctx)
	st.deadline = rt.deadline
	for {
		done, progressed, err := st.region(ctx)
		if err == nil && done {
			return nil
		}
		if err == nil || progressed {
			rt.attempt = 0 // rows arrived: the retries count afresh
		}
		if err == nil {
			continue
		}
		if st.fnErr != nil {
			return st.fnErr
		}
		if err = rt.retry(ctx, err, st.reg); err != nil {
			return fmt.Errorf("scan %s from %q: %w", table, s.Start, err)
		}
	}
}

type scanState struct {
	c        *Client
	table    string
	s        *ScanSpec
	res      *Result
	fn       func(*Result) error
	fnErr    error
	reg      *region
	deadline time.Time // of the whole scan
	cur      []byte    // where the next (re)open starts
	include  bool      // whether cur itself is still to be returned
	got      int
	results  [][]byte // reused by parseScanResponse
	counts   []uint32 // reused by parseScanResponse
}

// scanPool recycles scan states with their row and result buffers.
var scanPool = sync.Pool{New: func() any { return new(scanState) }}

func (st *scanState) release() {
	clear(st.results)
	*st = scanState{cur: st.cur[:0], results: st.results[:0], counts: st.counts[:0]}
	scanPool.Put(st)
}

func (st *scanState) perRPC() uint32 {
	n := st.s.Caching
	if n <= 0 {
		n = 100
		if st.s.Limit > 0 {
			n = min(st.s.Limit, 1000)
		}
	}
	if st.s.Limit > 0 {
		n = min(n, st.s.Limit-st.got)
	}
	return uint32(n)
}

func (st *scanState) remaining() uint32 {
	if st.s.Limit <= 0 {
		return 0
	}
	return uint32(st.s.Limit - st.got)
}

// region scans the region holding st.cur to its end (or the scan's end). It
// reports whether the whole scan is done and whether any row was delivered.
func (st *scanState) region(ctx context.Context) (done, progressed bool, err error) {
	c := st.c
	st.reg = nil
	reg, err := c.locate(ctx, st.table, st.cur, st.deadline)
	if err != nil {
		return false, false, err
	}
	st.reg = reg
	rc, err := c.regionConn(ctx, reg.addr, st.deadline)
	if err != nil {
		return false, false, err
	}
	p := getFrame(0)
	defer func() { framePool.Put(p) }()
	*p = appendScanOpen((*p)[:0], reg.name, st.s, st.cur, st.include, c.opts.ScanMaxResultSize, st.perRPC(), st.remaining())
	var scannerID uint64
	open := false
	for {
		cl, err := rc.call(ctx, "Scan", *p, c.rpcTimeout(st.deadline))
		if err != nil {
			// The scanner (if the open got as far as naming it) may well
			// live on: the call timed out, the context ended, the server
			// answered an error. Close it rather than leave it to its
			// lease. (A scanner whose open call itself failed is unknown
			// here and cannot be closed.)
			if open && scannerMayLive(err) {
				c.closeScannerLater(rc, scannerID)
			}
			return false, progressed, err
		}
		sr, err := parseScanResponse(cl.resp.body, st.results, st.counts)
		if err == nil {
			st.results, st.counts = sr.results, sr.counts
			scannerID, open = sr.scannerID, true
			var rows int
			rows, err = st.deliver(&sr, cl.resp.cells)
			progressed = progressed || rows > 0
			if err == nil && rows == 0 && !sr.hasMoreInRegion {
				sr.moreInRegion = false
			}
			if err == nil {
				switch {
				case !sr.more:
					open = false
					done = true
				case st.s.Limit > 0 && st.got >= st.s.Limit:
					open = open && sr.moreInRegion
					done = true
				case !sr.moreInRegion:
					open = false
					done = st.nextRegion(reg)
				}
			}
		}
		cl.release()
		if err != nil || done || !open {
			switch {
			case open && err != nil: // the callback's error, a bad response
				c.closeScannerLater(rc, scannerID)
			case open: // done before the region ended (limit reached)
				*p = appendScanClose((*p)[:0], scannerID)
				cl, cerr := rc.call(ctx, "Scan", *p, c.rpcTimeout(st.deadline))
				if cerr == nil {
					cl.release()
				} else if scannerMayLive(cerr) {
					c.closeScannerLater(rc, scannerID)
				}
			}
			return done, progressed, err
		}
		*p = appendScanNext((*p)[:0], scannerID, st.perRPC(), st.remaining())
	}
}

// scannerCloseTimeout bounds a close sent after a scan failed.
const scannerCloseTimeout = 5 * time.Second

// closeScannerLater closes scanner id of rc's server in the background
// (best effort, within scannerCloseTimeout and the client's life), over a
// new connection if rc died. The failed scan does not wait for it.
func (c *Client) closeScannerLater(rc *rpcConn, id uint64) {
	go func() {
		ctx, cancel := context.WithTimeout(c.life, min(c.opts.RPCTimeout, scannerCloseTimeout))
		defer cancel()
		if !rc.alive() {
			var err error
			if rc, err = c.regionConn(ctx, rc.addr, time.Time{}); err != nil {
				return
			}
		}
		if cl, err := rc.call(ctx, "Scan", appendScanClose(nil, id), 0); err == nil {
			cl.release()
		}
	}()
}

// scannerMayLive reports whether a scanner can still be open on the server
// after a call on it failed with err: not when the server said it is gone.
func scannerMayLive(err error) bool {
	var re *RemoteError
	if errors.As(err, &re) {
		switch re.Class {
		case pkg + "UnknownScannerException", pkg + "exceptions.ScannerResetException":
			return false
		}
	}
	return true
}

// deliver hands each Result of sr to fn: serialized Results (their cells
// inline or in the cell block), or, in cell-block mode, cell counts with
// the cells in cells.
func (st *scanState) deliver(sr *scanResponse, cells []byte) (int, error) {
	n := len(sr.results)
	if len(sr.counts) > 0 {
		n = len(sr.counts)
	}
	for i := 0; i < n; i++ {
		st.res.Reset()
		var err error
		if len(sr.counts) > 0 {
			cells, err = st.res.decodeKeyValues(cells, int(sr.counts[i]))
		} else {
			var assoc int
			if assoc, err = st.res.decode(sr.results[i]); err == nil && assoc > 0 {
				cells, err = st.res.decodeKeyValues(cells, assoc)
			}
		}
		if err != nil {
			return i, fmt.Errorf("scan response: %w", err)
		}
		if row := st.res.Row(); row != nil {
			st.cur = append(st.cur[:0], row...)
			st.include = false
		}
		st.got++
		if err := st.fn(st.res); err != nil {
			st.fnErr = err
			return i + 1, err
		}
		if st.s.Limit > 0 && st.got >= st.s.Limit {
			return i + 1, nil
		}
	}
	return n, nil
}

// nextRegion moves st past reg; it reports true when the scan is complete.
func (st *scanState) nextRegion(reg *region) bool {
	if len(reg.end) == 0 || (len(st.s.Stop) > 0 && bytes.Compare(st.s.Stop, reg.end) <= 0) {
		return true
	}
	st.cur = append(st.cur[:0], reg.end...)
	st.include = true
	return false
}

type scanResponse struct {
	scannerID                           uint64
	more, hasMoreInRegion, moreInRegion bool
	results                             [][]byte // serialized Results (inline mode)
	counts                              []uint32 // cells per result (cell-block mode)
}

// parseScanResponse decodes the fields of a ScanResponse the scan needs; the
// results alias b and reuse the results slice, the counts reuse counts.
// more and moreInRegion default to true when absent.
func parseScanResponse(b []byte, results [][]byte, counts []uint32) (scanResponse, error) {
	sr := scanResponse{more: true, moreInRegion: true, results: results[:0], counts: counts[:0]}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return sr, fmt.Errorf("scan response: %w", errCorrupt)
		}
		b = b[n:]
		switch {
		case typ == protowire.VarintType && (num == 2 || num == 3 || num == 8):
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return sr, fmt.Errorf("scan response field %d: %w", num, errCorrupt)
			}
			b = b[n:]
			switch num {
			case 2:
				sr.scannerID = v
			case 3:
				sr.more = v != 0
			case 8:
				sr.moreInRegion, sr.hasMoreInRegion = v != 0, true
			}
		case num == 5 && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return sr, fmt.Errorf("scan response result: %w", errCorrupt)
			}
			sr.results = append(sr.results, v)
			b = b[n:]
		case num == 1 && (typ == protowire.BytesType || typ == protowire.VarintType):
			var n int
			if sr.counts, n = consumeCounts(sr.counts, typ, b); n < 0 {
				return sr, fmt.Errorf("scan response cells per result: %w", errCorrupt)
			}
			b = b[n:]
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return sr, fmt.Errorf("scan response field %d: %w", num, errCorrupt)
			}
			b = b[n:]
		}
	}
	return sr, nil
}

func scanSize(s *ScanSpec, start []byte, include bool, maxSize uint64) int {
	n := 0
	if s.Family != nil {
		n += sizeBytesField(1, columnSize(s.Family, s.Qualifiers))
	}
	if len(start) > 0 {
		n += sizeBytesField(3, len(start))
	}
	if len(s.Stop) > 0 {
		n += sizeBytesField(4, len(s.Stop))
	}
	n += sizeVarintField(10, maxSize)
	if !include {
		n += sizeVarintField(21, 0)
	}
	return n
}

// appendScanOpen appends a ScanRequest that opens a scanner on region at start.
func appendScanOpen(b []byte, region []byte, s *ScanSpec, start []byte, include bool, maxSize uint64, rows, limit uint32) []byte {
	b = appendRegionSpec(b, 1, region)
	b = appendLen(b, 2, scanSize(s, start, include, maxSize))
	if s.Family != nil {
		b = appendColumn(b, 1, s.Family, s.Qualifiers)
	}
	if len(start) > 0 {
		b = appendBytesField(b, 3, start)
	}
	if len(s.Stop) > 0 {
		b = appendBytesField(b, 4, s.Stop)
	}
	b = appendVarintField(b, 10, maxSize)
	if !include {
		b = appendVarintField(b, 21, 0)
	}
	b = appendVarintField(b, 4, uint64(rows))
	if limit > 0 {
		b = appendVarintField(b, 11, uint64(limit))
	}
	return b
}

// appendScanNext appends a ScanRequest fetching the next rows of a scanner.
func appendScanNext(b []byte, id uint64, rows, limit uint32) []byte {
	b = appendVarintField(b, 3, id)
	b = appendVarintField(b, 4, uint64(rows))
	if limit > 0 {
		b = appendVarintField(b, 11, uint64(limit))
	}
	return b
}

// appendScanClose appends a ScanRequest closing a scanner.
func appendScanClose(b []byte, id uint64) []byte {
	b = appendVarintField(b, 3, id)
	b = appendVarintField(b, 4, 0)
	return appendVarintField(b, 5, 1)
}
