package hwire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sync"
	"time"
)

// Block construction stages (OpWriteBlockProto.BlockConstructionStage).
const (
	stageStreamingRecovery = 3
	stageCreate            = 6
)

const (
	maxInFlight  = 80 // packets sent and not acknowledged (Java's default)
	headerLen    = 25 // PacketHeaderProto with its four required fields
	maxRecovery  = 5  // recoveries in a row without progress before giving up
	setupRetries = 3  // new pipelines tried for one block (dfs.client.block.write.retries)
)

// CreateOptions are the parameters of [Create].
type CreateOptions struct {
	Perm             uint32
	Overwrite        bool // replace an existing file in the create call
	CreateParent     bool
	Replication      uint32
	BlockSize        uint64
	ChecksumType     uint64 // 0: CRC32C
	BytesPerChecksum uint32 // 0: 512
	PacketSize       int    // 0: 64 KiB
	// Sleep waits between retries of addBlock and complete; it returns an
	// error to stop waiting. nil: time.Sleep.
	Sleep func(time.Duration) error
	// Log, if not nil, is told of every pipeline recovery.
	Log func(msg string)
}

// Writer writes a file created by [Create]: the data goes in packets
// through each block's DataNode pipeline while an ack reader takes the
// acknowledgements. When a DataNode fails (an error ack, or the connection
// breaks), the Writer recovers as Java's DataStreamer does by default: it
// drops the failed node (the one an ack names, or the first), asks the
// NameNode for a new generation stamp (updateBlockForPipeline), sets the
// pipeline up again on the remaining nodes (PIPELINE_SETUP_STREAMING_RECOVERY),
// reports it (updatePipeline) and sends again every packet not yet
// acknowledged. It does not add a replacement DataNode (with replication 3,
// Java's DEFAULT policy does not either while 2 are left). A pipeline that
// cannot be set up for a new block is abandoned (abandonBlock) and asked
// again without the failed node, up to 3 times.
type Writer struct {
	nn     *NameNode
	peers  *Peers
	Src    string
	FileID uint64
	o      CreateOptions

	tab      *crc32.Table
	chunks   int // chunks per packet
	headroom int // bytes before a packet's data: frame, header, checksums

	blk          *LocatedBlock // block being written; nil between blocks
	nodes        []Datanode
	storageIDs   []string
	storageTypes []uint64
	excluded     []Datanode
	sent         uint64 // bytes of blk handed to the pipeline
	seq          int64
	cur          *packet
	pipe         *pipeline
	prev         Block // the last block finished
	hasPrev      bool
	renewed      time.Time
	err          error
	closed       bool

	// Recoveries counts the pipeline recoveries done; Failed lists the
	// DataNodes dropped from a pipeline.
	Recoveries int
	Failed     []string

	mu       sync.Mutex
	cond     sync.Cond
	inflight []*packet
	acked    uint64 // bytes of blk acknowledged by every node
	free     []*packet
}

type packet struct {
	buf  []byte // headroom, then data
	n    int
	off  uint64
	seq  int64
	last bool
	wire []byte
}

// pipeline is one connection to the first DataNode of a block's pipeline.
type pipeline struct {
	c    *peerConn
	err  error // under Writer.mu
	bad  int   // index of the node that failed, -1 not known
	done chan struct{}
}

// Create creates src on the NameNode (one create call; with o.Overwrite an
// existing file is replaced) and returns its writer.
func Create(nn *NameNode, peers *Peers, src string, o CreateOptions) (*Writer, error) {
	if o.ChecksumType == 0 {
		o.ChecksumType = checksumCRC32C
	}
	if o.BytesPerChecksum == 0 {
		o.BytesPerChecksum = 512
	}
	if o.PacketSize <= 0 {
		o.PacketSize = 64 << 10
	}
	if o.Sleep == nil {
		o.Sleep = func(d time.Duration) error { time.Sleep(d); return nil }
	}
	tab, err := checksumTable(o.ChecksumType)
	if err != nil || tab == nil {
		return nil, fmt.Errorf("hdfs wire: checksum type %d not supported for writes", o.ChecksumType)
	}
	st, err := nn.Create(src, o.Perm, o.Overwrite, o.CreateParent, o.Replication, o.BlockSize)
	if err != nil {
		return nil, err
	}
	if st.BlockSize > 0 {
		o.BlockSize = st.BlockSize
	}
	if o.BlockSize == 0 {
		return nil, fmt.Errorf("hdfs wire: create %s: no block size", src)
	}
	csb := int(o.BytesPerChecksum)
	chunks := max(1, (o.PacketSize-4-2-headerLen)/(csb+4))
	w := &Writer{nn: nn, peers: peers, Src: src, FileID: st.FileID, o: o, tab: tab,
		chunks: chunks, headroom: 4 + 2 + headerLen + 4*chunks, renewed: time.Now()}
	w.cond.L = &w.mu
	return w, nil
}

func (w *Writer) newPacket() *packet {
	w.mu.Lock()
	defer w.mu.Unlock()
	if k := len(w.free); k > 0 {
		p := w.free[k-1]
		w.free = w.free[:k-1]
		p.n, p.last = 0, false
		return p
	}
	return &packet{buf: make([]byte, w.headroom+w.chunks*int(w.o.BytesPerChecksum))}
}

// Write implements io.Writer.
func (w *Writer) Write(b []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.closed {
		return 0, errors.New("hdfs wire: write after close")
	}
	n := 0
	for len(b) > 0 {
		if w.cur == nil {
			w.cur = w.newPacket()
		}
		p := w.cur
		room := len(p.buf) - w.headroom - p.n
		if rest := int(w.o.BlockSize - w.sent - uint64(p.n)); rest < room {
			room = rest
		}
		k := copy(p.buf[w.headroom+p.n:w.headroom+p.n+room], b)
		p.n += k
		b = b[k:]
		n += k
		if w.headroom+p.n == len(p.buf) || w.sent+uint64(p.n) == w.o.BlockSize {
			if err := w.flushPacket(); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// fail makes err the writer's error for good and drops the pipeline.
func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = fmt.Errorf("%s: %w", w.Src, err)
	}
	if w.pipe != nil {
		w.pipe.c.Close()
		<-w.pipe.done
		w.pipe = nil
	}
	return w.err
}

// flushPacket sends the packet being filled, opening a block first if
// needed and ending the block when it is full.
func (w *Writer) flushPacket() error {
	if time.Since(w.renewed) > 30*time.Second {
		if err := w.nn.RenewLease(); err != nil {
			return w.fail(err)
		}
		w.renewed = time.Now()
	}
	if w.blk == nil {
		if err := w.nextBlock(); err != nil {
			return w.fail(err)
		}
	}
	p := w.cur
	w.cur = nil
	p.off = w.sent
	if err := w.send(p); err != nil {
		return w.fail(err)
	}
	if w.sent == w.o.BlockSize {
		if err := w.endBlock(); err != nil {
			return w.fail(err)
		}
	}
	return nil
}

// encode lays out p's frame, header and checksums in front of its data.
func (w *Writer) encode(p *packet) {
	csb := int(w.o.BytesPerChecksum)
	nch := (p.n + csb - 1) / csb
	start := w.headroom - 4*nch - headerLen - 6
	b := p.buf[start:]
	binary.BigEndian.PutUint32(b, uint32(4+4*nch+p.n))
	binary.BigEndian.PutUint16(b[4:], headerLen)
	h := putFixed64(b[6:6], 1, p.off)
	h = putFixed64(h, 2, uint64(p.seq))
	h = putBool(h, 3, p.last)
	putFixed32(h, 4, uint32(p.n))
	data := p.buf[w.headroom : w.headroom+p.n]
	sums := p.buf[w.headroom-4*nch : w.headroom]
	for i := 0; i < nch; i++ {
		c := data[i*csb : min((i+1)*csb, p.n)]
		binary.BigEndian.PutUint32(sums[4*i:], crc32.Checksum(c, w.tab))
	}
	p.wire = p.buf[start : w.headroom+p.n]
}

// send queues p as sent and writes it; a failure recovers the pipeline,
// which sends p again with the other unacknowledged packets.
func (w *Writer) send(p *packet) error {
	p.seq = w.seq
	w.seq++
	w.encode(p)
	for {
		w.mu.Lock()
		for len(w.inflight) >= maxInFlight && w.pipe.err == nil {
			w.cond.Wait()
		}
		perr := w.pipe.err
		w.mu.Unlock()
		if perr == nil {
			break
		}
		if err := w.recover(); err != nil {
			return err
		}
	}
	w.mu.Lock()
	w.inflight = append(w.inflight, p)
	w.mu.Unlock()
	w.sent += uint64(p.n)
	if _, err := w.pipe.c.Write(p.wire); err != nil {
		w.pipeFailed(w.pipe, err, -1)
		return w.recover()
	}
	return nil
}

// pipeFailed records the first failure of pipeline p.
func (w *Writer) pipeFailed(p *pipeline, err error, bad int) {
	w.mu.Lock()
	if p.err == nil {
		p.err, p.bad = err, bad
	}
	w.cond.Broadcast()
	w.mu.Unlock()
}

// waitAcked waits until every packet sent is acknowledged, recovering the
// pipeline as often as needed.
func (w *Writer) waitAcked() error {
	for {
		w.mu.Lock()
		for len(w.inflight) > 0 && w.pipe.err == nil {
			w.cond.Wait()
		}
		perr := w.pipe.err
		w.mu.Unlock()
		if perr == nil {
			return nil
		}
		if err := w.recover(); err != nil {
			return err
		}
	}
}

// endBlock sends the empty last packet of the block, waits for every ack
// and drops the connection.
func (w *Writer) endBlock() error {
	p := w.newPacket()
	p.off, p.last = w.sent, true
	if err := w.send(p); err != nil {
		return err
	}
	if err := w.waitAcked(); err != nil {
		return err
	}
	w.pipe.c.Close()
	<-w.pipe.done
	w.pipe = nil
	w.prev = w.blk.B
	w.prev.NumBytes = w.sent
	w.hasPrev = true
	w.blk = nil
	return nil
}

// retry runs call, again after a growing pause while the NameNode answers
// NotReplicatedYetException (the previous block lacks its replicas).
func (w *Writer) retry(call func() error) error {
	wait := 20 * time.Millisecond
	for i := 0; ; i++ {
		err := call()
		if err == nil || i == 8 || !IsClass(err, "NotReplicatedYetException") {
			return err
		}
		if serr := w.o.Sleep(wait); serr != nil {
			return errors.Join(err, serr)
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// nextBlock allocates the next block and sets its pipeline up.
func (w *Writer) nextBlock() error {
	var last error
	for try := 0; try <= setupRetries; try++ {
		var prev *Block
		if w.hasPrev {
			prev = &w.prev
		}
		var lb LocatedBlock
		err := w.retry(func() (err error) {
			lb, err = w.nn.AddBlock(w.Src, w.FileID, prev, w.excluded)
			return err
		})
		if err != nil {
			return err
		}
		if len(lb.Locs) == 0 {
			return fmt.Errorf("addBlock gave %s no DataNode", lb.B)
		}
		w.blk = &lb
		w.nodes = append(w.nodes[:0], lb.Locs...)
		w.storageIDs = append(w.storageIDs[:0], lb.StorageIDs...)
		w.storageTypes = append(w.storageTypes[:0], lb.StorageTypes...)
		w.sent = 0
		w.acked = 0
		p, bad, err := w.connect(stageCreate, 0, lb.Token, 0, 0)
		if err == nil {
			w.pipe = p
			return nil
		}
		last = err
		if aerr := w.nn.AbandonBlock(w.Src, w.FileID, lb.B); aerr != nil {
			return errors.Join(err, aerr)
		}
		w.blk = nil
		w.log(fmt.Sprintf("abandoned %s: pipeline set-up failed at %s: %v", lb.B, w.nodes[bad].Addr(), err))
		w.excluded = append(w.excluded, w.nodes[bad])
		w.Failed = append(w.Failed, w.nodes[bad].Addr())
		w.peers.markDead(w.nodes[bad].Addr())
	}
	return fmt.Errorf("unable to create a new block after %d pipelines: %w", setupRetries+1, last)
}

func (w *Writer) log(msg string) {
	if w.o.Log != nil {
		w.o.Log(w.Src + ": " + msg)
	}
}

// connect sets up the pipeline w.nodes for w.blk in stage and starts its
// ack reader. On failure bad is the index of the node to blame.
func (w *Writer) connect(stage uint64, latestGS uint64, token []byte, minBytes, maxBytes uint64) (*pipeline, int, error) {
	addr := w.nodes[0].Addr()
	c, err := w.peers.get(addr, true, token)
	if err != nil {
		return nil, 0, err
	}
	hb := w.blk.B
	hb.NumBytes = w.o.BlockSize // as Java's client sends it
	m := putMsg(nil, 1, func(h []byte) []byte { return appendClientHeader(h, &hb, token, w.nn.ClientName) })
	for i := 1; i < len(w.nodes); i++ {
		m = putBytes(m, 2, w.nodes[i].Raw)
	}
	m = putUint(m, 4, stage)
	m = putUint(m, 5, uint64(len(w.nodes)))
	m = putUint(m, 6, minBytes)
	m = putUint(m, 7, maxBytes)
	m = putUint(m, 8, latestGS)
	m = putMsg(m, 9, func(cs []byte) []byte {
		cs = putUint(cs, 1, w.o.ChecksumType)
		return putUint(cs, 2, uint64(w.o.BytesPerChecksum))
	})
	if len(w.storageTypes) == len(w.nodes) {
		m = putUint(m, 11, w.storageTypes[0])
		for _, t := range w.storageTypes[1:] {
			m = putUint(m, 12, t)
		}
	}
	if len(w.storageIDs) == len(w.nodes) {
		m = putString(m, 16, w.storageIDs[0])
		for _, s := range w.storageIDs[1:] {
			m = putString(m, 17, s)
		}
	}
	if _, err := c.Write(appendOp(nil, opWriteBlock, m)); err != nil {
		c.Close()
		return nil, 0, err
	}
	msg, err := readDelimited(c.r, nil)
	if err != nil {
		c.Close()
		return nil, 0, err
	}
	var resp opResponse
	if err := resp.decode(msg); err != nil {
		c.Close()
		return nil, 0, err
	}
	if resp.status != statusOK {
		c.Close()
		bad := 0
		for i := range w.nodes {
			if resp.firstBadLink != "" && w.nodes[i].Addr() == resp.firstBadLink {
				bad = i
			}
		}
		return nil, bad, &StatusError{Addr: addr, Status: resp.status, Message: resp.message + " (first bad link " + resp.firstBadLink + ")"}
	}
	p := &pipeline{c: c, bad: -1, done: make(chan struct{})}
	go w.acks(p)
	return p, 0, nil
}

// acks reads the pipeline's acknowledgements until the block's last
// packet is acknowledged or the pipeline fails.
func (w *Writer) acks(p *pipeline) {
	defer close(p.done)
	var buf []byte
	for {
		m, err := readDelimited(p.c.r, buf)
		if err != nil {
			w.pipeFailed(p, fmt.Errorf("reading acks from %s: %w", p.c.addr, err), -1)
			return
		}
		buf = m
		var seq int64
		var replies []uint64
		err = each(m, func(f field) error {
			switch f.n {
			case 1:
				seq = int64(f.x>>1) ^ -int64(f.x&1) // zigzag
			case 2:
				return varints(f, func(x uint64) { replies = append(replies, x) })
			}
			return nil
		})
		if err != nil {
			w.pipeFailed(p, err, -1)
			return
		}
		for i := len(replies) - 1; i >= 0; i-- {
			if replies[i] != statusOK {
				addr := "?"
				if i < len(w.nodes) {
					addr = w.nodes[i].Addr()
				}
				w.pipeFailed(p, &StatusError{Addr: addr, Status: replies[i], Message: "in a pipeline ack"}, i)
				return
			}
		}
		if seq == -1 {
			continue // heartbeat
		}
		w.mu.Lock()
		if len(w.inflight) == 0 || w.inflight[0].seq != seq {
			w.mu.Unlock()
			w.pipeFailed(p, fmt.Errorf("ack for packet %d out of order", seq), -1)
			return
		}
		pk := w.inflight[0]
		w.inflight = w.inflight[1:]
		w.acked = pk.off + uint64(pk.n)
		last := pk.last // pk is reused as soon as the lock is released
		w.free = append(w.free, pk)
		w.cond.Broadcast()
		w.mu.Unlock()
		if last {
			return
		}
	}
}

// recover replaces the failed pipeline (see [Writer]).
func (w *Writer) recover() error {
	p := w.pipe
	p.c.Close()
	<-p.done
	w.mu.Lock()
	cause, bad := p.err, p.bad
	w.mu.Unlock()
	for attempt := 0; ; attempt++ {
		if attempt >= maxRecovery {
			return fmt.Errorf("pipeline recovery of %s failed %d times: %w", w.blk.B, attempt, cause)
		}
		if bad < 0 || bad >= len(w.nodes) {
			bad = 0 // as Java: blame the first node when the ack does not say
		}
		if len(w.nodes) <= 1 {
			return fmt.Errorf("all DataNodes of the pipeline of %s failed: %w", w.blk.B, cause)
		}
		dn := w.nodes[bad]
		w.log(fmt.Sprintf("pipeline recovery of %s: DataNode %s failed (%v); going on with %d", w.blk.B, dn.Addr(), cause, len(w.nodes)-1))
		w.Failed = append(w.Failed, dn.Addr())
		w.excluded = append(w.excluded, dn)
		w.peers.markDead(dn.Addr())
		w.nodes = append(w.nodes[:bad:bad], w.nodes[bad+1:]...)
		if len(w.storageIDs) > bad {
			w.storageIDs = append(w.storageIDs[:bad:bad], w.storageIDs[bad+1:]...)
		}
		if len(w.storageTypes) > bad {
			w.storageTypes = append(w.storageTypes[:bad:bad], w.storageTypes[bad+1:]...)
		}
		lb, err := w.nn.UpdateBlockForPipeline(w.blk.B)
		if err != nil {
			return fmt.Errorf("pipeline recovery of %s: %w (after %w)", w.blk.B, err, cause)
		}
		w.mu.Lock()
		acked := w.acked
		w.mu.Unlock()
		np, b2, err := w.connect(stageStreamingRecovery, lb.B.GenStamp, lb.Token, acked, w.sent)
		if err != nil {
			cause, bad = err, b2
			continue
		}
		oldB := w.blk.B
		oldB.NumBytes = acked
		newB := oldB
		newB.GenStamp = lb.B.GenStamp
		if err := w.nn.UpdatePipeline(oldB, newB, w.nodes, w.storageIDs); err != nil {
			np.c.Close()
			<-np.done
			return fmt.Errorf("pipeline recovery of %s: %w (after %w)", w.blk.B, err, cause)
		}
		w.blk.B.GenStamp = newB.GenStamp
		w.blk.Token = lb.Token
		w.pipe = np
		w.Recoveries++
		w.mu.Lock()
		again := append([]*packet(nil), w.inflight...)
		w.mu.Unlock()
		for _, pk := range again {
			if _, err := np.c.Write(pk.wire); err != nil {
				w.pipeFailed(np, err, -1) // the caller's next wait recovers again
				break
			}
		}
		return nil
	}
}

// Close flushes the data, ends the last block and completes the file
// (complete, again while the NameNode waits for the last block's replicas).
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		return w.fail(w.err)
	}
	if w.cur != nil && w.cur.n > 0 {
		if err := w.flushPacket(); err != nil {
			return err
		}
	}
	if w.blk != nil {
		if err := w.endBlock(); err != nil {
			return w.fail(err)
		}
	}
	var last *Block
	if w.hasPrev {
		last = &w.prev
	}
	wait := 10 * time.Millisecond
	for i := 0; ; i++ {
		ok, err := w.nn.Complete(w.Src, w.FileID, last)
		if err != nil {
			return w.fail(err)
		}
		if ok {
			return nil
		}
		if i == 12 {
			return w.fail(errors.New("complete: the last block still lacks its minimum replicas"))
		}
		if err := w.o.Sleep(wait); err != nil {
			return w.fail(err)
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// Abort drops the pipeline without completing the file (it stays under
// construction until its lease expires or it is deleted).
func (w *Writer) Abort() {
	w.closed = true
	w.fail(errors.New("aborted"))
}
