//go:build cluster

package hbclient

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"
)

// workers runs k goroutines until stop closes, each doing a Get or a Put
// of a random row of rows (of n), recording every operation in log with
// its deadline (OperationTimeout from its start). With bigValue > 0 they
// only Put values of that many bytes (in another column). They use c and are waited for by the returned wait.
func workers(ctx context.Context, c *Client, table string, k, n int, rows []int, log *opLog, stop <-chan struct{}, bigValue int) (wait func()) {
	var wg sync.WaitGroup
	opTimeout := c.opts.OperationTimeout
	// As the engine's: no deadline, so that OperationTimeout bounds each
	// operation (a context deadline would replace it).
	ctx = context.WithoutCancel(ctx)
	for w := 0; w < k; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(w), 7))
			var res Result
			big := make([]byte, bigValue)
			for {
				select {
				case <-stop:
					return
				default:
				}
				i := rows[rnd.IntN(len(rows))]
				start := time.Now()
				var err error
				switch {
				case bigValue > 0:
					m := Mutation{Row: []byte(rowKey(i, n)), Type: Put, Family: []byte("f"), Qualifiers: bs("big"), Values: [][]byte{big}}
					err = c.Mutate(ctx, table, &m)
				case rnd.IntN(2) == 0:
					m := Mutation{Row: []byte(rowKey(i, n)), Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: bs("v" + strconv.Itoa(i))}
					err = c.Mutate(ctx, table, &m)
				default:
					err = readRow(ctx, c, table, i, n, &res)
				}
				log.add(opRecord{start: start, end: time.Now(), deadline: start.Add(opTimeout), row: i, err: err})
			}
		}()
	}
	return wg.Wait
}

// rowsOn splits rows 0..n-1 by the server the client has their region
// cached at (every row must be cached).
func rowsOn(t *testing.T, c *Client, table string, n int) map[string][]int {
	t.Helper()
	m := map[string][]int{}
	for i := 0; i < n; i++ {
		r := cachedRegion(t, c, table, rowKey(i, n))
		m[r.addr] = append(m[r.addr], i)
	}
	return m
}

func allRows(n int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = i
	}
	return l
}

// checkDeadlines fails the test for every operation that took longer than
// its deadline (plus slack for the test's own scheduling).
func checkDeadlines(t *testing.T, ops []opRecord, slack time.Duration) {
	t.Helper()
	late := 0
	for _, o := range ops {
		if o.end.After(o.deadline.Add(slack)) {
			if late++; late <= 5 {
				t.Errorf("an operation on row %d took %v, past its deadline by %v: %v", o.row, o.end.Sub(o.start).Round(time.Millisecond),
					o.end.Sub(o.deadline).Round(time.Millisecond), o.err)
			}
		}
	}
	if late > 5 {
		t.Errorf("%d operations in all ended past their deadline", late)
	}
}

// summary describes the operations that started in [from, to).
func summary(ops []opRecord, from, to time.Time) (n, failed int, p99, maxLat time.Duration, firstErr error) {
	var lats []time.Duration
	for _, o := range ops {
		if o.start.Before(from) || !o.start.Before(to) {
			continue
		}
		n++
		if o.err != nil {
			failed++
			if firstErr == nil {
				firstErr = o.err
			}
		}
		lats = append(lats, o.end.Sub(o.start))
	}
	if len(lats) == 0 {
		return
	}
	sort.Slice(lats, func(i, j int) bool { return lats[i] < lats[j] })
	return n, failed, lats[(len(lats)*99)/100], lats[len(lats)-1], firstErr
}

// A RegionServer (not meta's) SIGKILLed under load and started again 20 s
// later: while it is down the client dials it at most once per 2 s (the
// failed-servers list), no operation runs past its deadline, and once its
// regions are served again every operation succeeds.
func TestClusterRegionServerKilled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cl := openCluster(t, ctx)
	table := clusterTable(t, ctx, cl, 24)
	const n = 2400
	dl := newDialLog()
	c := clusterClient(t, Options{Dial: dl.dial, OperationTimeout: 45 * time.Second})
	loadRows(t, ctx, c, table, n)
	var res Result
	for i := 0; i < n; i++ {
		if err := readRow(ctx, c, table, i, n, &res); err != nil {
			t.Fatal(err)
		}
	}
	victim := otherNode(t, metaNode(t, ctx))
	vaddr := addrOf(t, victim)
	restartLater(t, cl, victim)

	var log opLog
	stop := make(chan struct{})
	wait := workers(ctx, c, table, 16, n, allRows(n), &log, stop, 0)
	time.Sleep(3 * time.Second)
	killed := time.Now()
	if err := cl.Kill(ctx, victim); err != nil {
		close(stop)
		wait()
		t.Fatal(err)
	}
	time.Sleep(20 * time.Second)
	started := time.Now()
	startErr := cl.Start(ctx, victim)
	up := time.Now()
	per, servedErr := cl.HBase().WaitServed(ctx, table, 3*time.Minute)
	served := time.Now()
	time.Sleep(8 * time.Second)
	close(stop)
	wait()
	if startErr != nil || servedErr != nil {
		t.Fatalf("start %s again: %v; wait until served: %v", victim, startErr, servedErr)
	}
	ops := log.all()
	t.Logf("%s killed; started again after %v, ready after %v; every region served %v after the kill (%v)", victim,
		started.Sub(killed).Round(100*time.Millisecond), up.Sub(killed).Round(100*time.Millisecond), served.Sub(killed).Round(100*time.Millisecond), per)
	for _, w := range []struct {
		name     string
		from, to time.Time
	}{{"before the kill", time.Time{}, killed}, {"kill to served", killed, served}, {"after served", served, time.Now()}} {
		k, f, p99, mx, first := summary(ops, w.from, w.to)
		t.Logf("%-16s %6d ops, %4d failed, p99 %v, max %v; first error: %v", w.name, k, f, p99.Round(time.Millisecond), mx.Round(time.Millisecond), first)
	}
	checkDeadlines(t, ops, time.Second)
	if _, f, _, _, first := summary(ops, served, time.Now()); f > 0 {
		t.Errorf("%d operations failed after every region was served again; the first: %v", f, first)
	}
	if k, f, _, _, first := summary(ops, time.Time{}, killed); f > 0 || k == 0 {
		t.Errorf("before the kill: %d ops, %d failed (%v)", k, f, first)
	}
	// Dials to the victim: at most one per FailedServerExpiry (2 s) while
	// it was down or starting.
	var last time.Time
	var failed, total int
	for _, d := range dl.of(vaddr) {
		if d.at.Before(killed) {
			continue
		}
		total++
		if d.err != nil {
			failed++
		}
		if !last.IsZero() && d.at.Sub(last) < 1900*time.Millisecond {
			t.Errorf("dials to %s at %v and %v after the kill: less than 2 s apart", victim,
				last.Sub(killed).Round(time.Millisecond), d.at.Sub(killed).Round(time.Millisecond))
		}
		last = d.at
	}
	st := c.Stats()
	t.Logf("%d dials to %s after the kill (%d failed); client stats %+v", total, victim, failed, st)
	if failed == 0 {
		t.Errorf("no failed dial to %s while it was down: the test did not reach it", victim)
	}
}

// A RegionServer (not meta's) frozen with SIGSTOP for 10 s: operations on
// the other servers go on at their usual latency; big Puts sent to the
// frozen one fill its socket, so the client gives up on that connection and dials
// another (the kernel still accepts). After SIGCONT the server answers on
// the old connections too, late; none of that closes the connection the
// client uses then, and every operation from then on succeeds.
func TestClusterRegionServerFrozen(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	cl := openCluster(t, ctx)
	table := clusterTable(t, ctx, cl, 24)
	const n = 2400
	dl := newDialLog()
	dl.sndBuf = 64 << 10 // so that a few big Puts fill the socket (its buffer would grow to 4 MiB)
	c := clusterClient(t, Options{Dial: dl.dial, RPCTimeout: 2 * time.Second, OperationTimeout: 30 * time.Second})
	loadRows(t, ctx, c, table, n)
	var res Result
	for i := 0; i < n; i++ {
		if err := readRow(ctx, c, table, i, n, &res); err != nil {
			t.Fatal(err)
		}
	}
	victim := otherNode(t, metaNode(t, ctx))
	vaddr := addrOf(t, victim)
	on := rowsOn(t, c, table, n)
	var others []int
	for addr, rows := range on {
		if addr != vaddr {
			others = append(others, rows...)
		}
	}
	if len(on[vaddr]) == 0 || len(others) == 0 {
		t.Fatalf("rows per server %v: want rows on %s and elsewhere", len(on), victim)
	}
	restartLater(t, cl, victim)

	var otherLog, victimLog opLog
	stop := make(chan struct{})
	wait1 := workers(ctx, c, table, 8, n, others, &otherLog, stop, 0)
	wait2 := workers(ctx, c, table, 8, n, on[vaddr], &victimLog, stop, 0)
	time.Sleep(4 * time.Second)
	frozen := time.Now()
	if err := cl.Freeze(ctx, victim, 10*time.Second); err != nil {
		close(stop)
		wait1()
		wait2()
		t.Fatal(err)
	}
	// Big Puts from now on: the frozen server's receive buffer, small after
	// the small requests before (it grows only as the server reads), fills.
	wait3 := workers(ctx, c, table, 4, n, on[vaddr], &victimLog, stop, 256<<10)
	thawed := frozen.Add(10 * time.Second)
	time.Sleep(time.Until(thawed) + 3*time.Second)
	settled := time.Now()
	c.mu.RLock()
	inUse := c.conns[vaddr]
	c.mu.RUnlock()
	time.Sleep(7 * time.Second)
	close(stop)
	wait1()
	wait2()
	wait3()
	end := time.Now()

	for _, w := range []struct {
		name     string
		log      *opLog
		from, to time.Time
	}{
		{"others, before", &otherLog, time.Time{}, frozen}, {"others, frozen", &otherLog, frozen, thawed}, {"others, after", &otherLog, thawed, end},
		{"victim, before", &victimLog, time.Time{}, frozen}, {"victim, frozen", &victimLog, frozen, thawed}, {"victim, after", &victimLog, thawed, end},
	} {
		k, f, p99, mx, first := summary(w.log.all(), w.from, w.to)
		t.Logf("%-15s %6d ops, %4d failed, p99 %v, max %v; first error: %v", w.name, k, f, p99.Round(time.Millisecond), mx.Round(time.Millisecond), first)
	}
	// The other servers are not slowed: operations keep completing while
	// the victim is frozen, none fails, none waits for an RPC timeout
	// (2 s), and their p99 stays near the one before.
	nb, _, p99b, _, _ := summary(otherLog.all(), time.Time{}, frozen)
	nf, ff, p99f, maxf, firstf := summary(otherLog.all(), frozen, thawed)
	if nf < nb || ff > 0 || maxf >= c.opts.RPCTimeout || p99f > max(3*p99b, 250*time.Millisecond) {
		t.Errorf("operations on the other servers while %s was frozen: %d in 10 s (%d in the 4 s before), %d failed (%v), p99 %v (before %v), max %v",
			victim, nf, nb, ff, firstf, p99f, p99b, maxf)
	}
	if _, f, _, _, first := summary(victimLog.all(), settled, end); f > 0 {
		t.Errorf("%d operations on %s failed after it was thawed; the first: %v", f, victim, first)
	}
	if _, f, _, _, first := summary(otherLog.all(), frozen, end); f > 0 {
		t.Errorf("%d operations on the other servers failed; the first: %v", f, first)
	}
	checkDeadlines(t, append(otherLog.all(), victimLog.all()...), time.Second)
	// Connections to the victim: the one in use 3 s after the thaw is the
	// one at the end, alive; none dialled after the thaw was closed.
	c.mu.RLock()
	final := c.conns[vaddr]
	c.mu.RUnlock()
	if inUse == nil || final != inUse || !final.alive() {
		t.Errorf("the connection to %s 3 s after the thaw (%p) is not the one at the end (%p, alive %v): a late error closed it",
			victim, inUse, final, final != nil && final.alive())
	}
	var during int
	for _, d := range dl.of(vaddr) {
		closed := time.Time{}
		if d.nc != nil {
			closed = d.nc.closedAt()
		}
		t.Logf("dial to %s at %+.1fs (freeze at 0): err %v, closed by the client at %s", victim, d.at.Sub(frozen).Seconds(), d.err, since(closed, frozen))
		if d.at.After(frozen) && d.at.Before(thawed) {
			during++
		}
		if d.at.After(thawed) && !closed.IsZero() {
			t.Errorf("a connection to %s dialled %v after the thaw was closed %v after it", victim, d.at.Sub(thawed).Round(time.Millisecond), closed.Sub(d.at).Round(time.Millisecond))
		}
	}
	if during == 0 {
		t.Errorf("no connection to %s was dialled while it was frozen: the test did not replace one", victim)
	}
}

func since(at, base time.Time) string {
	if at.IsZero() {
		return "never"
	}
	return fmt.Sprintf("%+.1fs", at.Sub(base).Seconds())
}

// The RegionServer holding hbase:meta SIGKILLed (and started again 5 s
// later): reads of regions the client has cached on other servers go on;
// the client reads meta's new location from ZooKeeper once meta is
// reassigned, and every operation succeeds again.
func TestClusterMetaServerKilled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cl := openCluster(t, ctx)
	table := clusterTable(t, ctx, cl, 24)
	const n = 2400
	c := clusterClient(t, Options{OperationTimeout: 45 * time.Second})
	loadRows(t, ctx, c, table, n)
	var res Result
	for i := 0; i < n; i++ {
		if err := readRow(ctx, c, table, i, n, &res); err != nil {
			t.Fatal(err)
		}
	}
	victim := metaNode(t, ctx)
	vaddr := addrOf(t, victim)
	on := rowsOn(t, c, table, n)
	var others []int
	for addr, rows := range on {
		if addr != vaddr {
			others = append(others, rows...)
		}
	}
	restartLater(t, cl, victim)
	before := c.Stats()

	var otherLog, allLog opLog
	stop := make(chan struct{})
	wait1 := workers(ctx, c, table, 4, n, others, &otherLog, stop, 0)
	wait2 := workers(ctx, c, table, 12, n, allRows(n), &allLog, stop, 0)
	time.Sleep(3 * time.Second)
	killed := time.Now()
	var startErr, readyErr, servedErr error
	if startErr = cl.Kill(ctx, victim); startErr == nil {
		time.Sleep(5 * time.Second)
		startErr = cl.Start(ctx, victim)
	}
	if startErr == nil {
		readyErr = cl.HBase().WaitReady(ctx, 3, 3*time.Minute)
		_, servedErr = cl.HBase().WaitServed(ctx, table, 3*time.Minute)
	}
	served := time.Now()
	time.Sleep(8 * time.Second)
	close(stop)
	wait1()
	wait2()
	if startErr != nil || readyErr != nil || servedErr != nil {
		t.Fatalf("kill and start %s: %v; meta and the table served again: %v, %v", victim, startErr, readyErr, servedErr)
	}
	t.Logf("%s (meta) killed, started 5 s later; meta and every region served %v after the kill", victim, served.Sub(killed).Round(100*time.Millisecond))
	for _, w := range []struct {
		name     string
		log      *opLog
		from, to time.Time
	}{
		{"cached elsewhere, kill to served", &otherLog, killed, served},
		{"all rows, kill to served", &allLog, killed, served}, {"all rows, after", &allLog, served, time.Now()},
	} {
		k, f, p99, mx, first := summary(w.log.all(), w.from, w.to)
		t.Logf("%-34s %6d ops, %4d failed, p99 %v, max %v; first error: %v", w.name, k, f, p99.Round(time.Millisecond), mx.Round(time.Millisecond), first)
	}
	if _, f, _, _, first := summary(allLog.all(), served, time.Now()); f > 0 {
		t.Errorf("%d operations failed after meta and the table were served again; the first: %v", f, first)
	}
	checkDeadlines(t, append(otherLog.all(), allLog.all()...), time.Second)
	after := c.Stats()
	var res2 Result
	if err := readRow(ctx, c, table, 0, n, &res2); err != nil {
		t.Fatal(err)
	}
	now := metaNode(t, ctx)
	c.mu.RLock()
	cached := c.metaAddr
	c.mu.RUnlock()
	t.Logf("meta now on %s; the client has it at %q; ZooKeeper reads of meta's location %d, meta lookups %d during the test",
		now, cached, after.MetaLocates-before.MetaLocates, after.MetaLookups-before.MetaLookups)
	if after.MetaLocates <= before.MetaLocates || cached != addrOf(t, now) {
		t.Errorf("the client read meta's location from ZooKeeper %d times after the kill and has it at %q; want at least once, and %s",
			after.MetaLocates-before.MetaLocates, cached, addrOf(t, now))
	}
}
