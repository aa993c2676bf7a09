//go:build cluster

package hbclient

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// encodedName returns the encoded name of a region name
// ("table,start,id.ENCODED." -> ENCODED).
func encodedName(name []byte) string {
	s := strings.TrimSuffix(string(name), ".")
	return s[strings.LastIndexByte(s, '.')+1:]
}

// cachedRegion returns the region the client has cached for row.
func cachedRegion(t *testing.T, c *Client, table, row string) *region {
	t.Helper()
	r := c.cache.get(table, []byte(row))
	if r == nil {
		t.Fatalf("no cached region for %s", row)
	}
	return r
}

// A region moved to another server: Get, Mutate and Multi on it go to the
// new server at once, told by the old one's RegionMovedException, without a
// meta lookup.
func TestClusterRegionMove(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cl := openCluster(t, ctx)
	table := clusterTable(t, ctx, cl, 6)
	const n = 600
	c := clusterClient(t, Options{OperationTimeout: 30 * time.Second})
	loadRows(t, ctx, c, table, n)
	var res Result
	for i := 0; i < n; i++ { // every region cached
		if err := readRow(ctx, c, table, i, n, &res); err != nil {
			t.Fatal(err)
		}
	}
	ops := []struct {
		name string
		row  int
		run  func(row int) error
	}{
		{"Get", 50, func(i int) error { return readRow(ctx, c, table, i, n, &res) }},
		{"Mutate", 150, func(i int) error {
			m := Mutation{Row: []byte(rowKey(i, n)), Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: bs("v" + strconv.Itoa(i))}
			return c.Mutate(ctx, table, &m)
		}},
		{"Multi", 250, func(i int) error {
			var muts []Mutation
			for j := i; j < i+10; j++ {
				muts = append(muts, Mutation{Row: []byte(rowKey(j, n)), Type: Put, Family: []byte("f"), Qualifiers: bs("q"), Values: bs("v" + strconv.Itoa(j))})
			}
			return c.Multi(ctx, table, muts)
		}},
	}
	for _, op := range ops {
		row := rowKey(op.row, n)
		reg := cachedRegion(t, c, table, row)
		from := nodeOf(t, reg.addr)
		to := otherNode(t, from)
		mv, err := cl.HBase().MoveRegion(ctx, encodedName(reg.name), to)
		if err != nil {
			t.Fatalf("move the region of %s to %s: %v", row, to, err)
		}
		before := c.Stats()
		start := time.Now()
		err = op.run(op.row)
		took := time.Since(start)
		after := c.Stats()
		got := cachedRegion(t, c, table, row)
		t.Logf("%s on %s after its region moved %s -> %s: %v in %v; meta lookups %d, locations followed %d",
			op.name, row, mv.From, mv.To, err, took.Round(time.Millisecond),
			after.MetaLookups-before.MetaLookups, after.MovedFollowed-before.MovedFollowed)
		if err != nil {
			t.Errorf("%s after a move: %v", op.name, err)
		}
		if after.MetaLookups != before.MetaLookups || after.MovedFollowed-before.MovedFollowed != 1 {
			t.Errorf("%s after a move: %d meta lookups, %d moved locations followed; want 0 and 1",
				op.name, after.MetaLookups-before.MetaLookups, after.MovedFollowed-before.MovedFollowed)
		}
		if got.addr != addrOf(t, to) {
			t.Errorf("%s after a move to %s: the region of %s is cached at %s", op.name, to, row, got.addr)
		}
	}
	for i := 0; i < n; i++ {
		if err := readRow(ctx, c, table, i, n, &res); err != nil {
			t.Fatal(err)
		}
	}
}

// The finding of the cluster work (testenv/README.md, "Found on the
// cluster"): a region moved away and back and then split leaves both
// servers answering RegionMovedException for the parent, each naming the
// other. A client with the parent cached follows the first location, sees
// the second point back, reads hbase:meta and reaches the daughters: every
// read succeeds, with a bounded number of redirections and one or two
// lookups.
func TestClusterRegionMovedPingPong(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cl := openCluster(t, ctx)
	table := clusterTable(t, ctx, cl, 6)
	const n = 600
	c := clusterClient(t, Options{OperationTimeout: 30 * time.Second})
	loadRows(t, ctx, c, table, n)
	var res Result
	for i := 0; i < n; i++ {
		if err := readRow(ctx, c, table, i, n, &res); err != nil {
			t.Fatal(err)
		}
	}
	const lo, hi = 250, 350 // rows of the third region [user4599, user6399)
	parent := cachedRegion(t, c, table, rowKey(lo, n))
	if r := cachedRegion(t, c, table, rowKey(hi-1, n)); r != parent {
		t.Fatalf("rows %d and %d are in different regions", lo, hi-1)
	}
	enc := encodedName(parent.name)
	home := nodeOf(t, parent.addr)
	away := otherNode(t, home)
	h := cl.HBase()
	if _, err := h.MoveRegion(ctx, enc, away); err != nil {
		t.Fatal(err)
	}
	if _, err := h.MoveRegion(ctx, enc, home); err != nil {
		t.Fatal(err)
	}
	if err := h.SplitRegion(ctx, enc, rowKey((lo+hi)/2, n)); err != nil { // (the rows are in the memstore: no split point of its own)
		t.Fatal(err)
	}
	// What each server says about the parent now (the client still has it
	// cached at home): each names the other.
	for _, node := range []string{home, away} {
		other := home
		if node == home {
			other = away
		}
		rc, err := c.regionConn(ctx, addrOf(t, node), time.Now().Add(10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		cll, err := rc.call(ctx, "Get", appendGetRequest(nil, parent.name, []byte(rowKey(lo, n)), []byte("f"), nil), 10*time.Second)
		if err == nil {
			cll.release()
		}
		t.Logf("%s answers for the split parent %s: %v (new location %q)", node, enc, err, movedTo(err))
		if movedTo(err) != addrOf(t, other) {
			t.Fatalf("%s answers %v for the split parent; the test needs RegionMovedException naming %s (the ping-pong)", node, err, other)
		}
	}
	before := c.Stats()
	start := time.Now()
	var slow time.Duration
	for i := lo; i < hi; i++ {
		t0 := time.Now()
		if err := readRow(ctx, c, table, i, n, &res); err != nil {
			t.Fatalf("read %s after the parent's move away and back and split: %v", rowKey(i, n), err)
		}
		slow = max(slow, time.Since(t0))
	}
	after := c.Stats()
	lookups, followed := after.MetaLookups-before.MetaLookups, after.MovedFollowed-before.MovedFollowed
	t.Logf("%d rows of the split parent read in %v (slowest %v): %d meta lookups, %d moved locations followed",
		hi-lo, time.Since(start).Round(time.Millisecond), slow.Round(time.Millisecond), lookups, followed)
	if lookups < 1 || lookups > 2 || followed > maxMovedHops {
		t.Errorf("%d meta lookups and %d moved locations followed; want 1-2 lookups and at most %d", lookups, followed, maxMovedHops)
	}
	if r := cachedRegion(t, c, table, rowKey(lo, n)); r == parent || string(r.name) == string(parent.name) {
		t.Errorf("the split parent %s is still cached", enc)
	}
}

// A cold client on a 24-region table: 72 concurrent reads, 3 per region,
// each a cache miss, run at most 8 meta lookups at once (Java's
// hbase.client.meta.max.concurrent.locate.per.table) and all succeed.
func TestClusterColdStart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cl := openCluster(t, ctx)
	table := clusterTable(t, ctx, cl, 24)
	const n = 2400
	loadRows(t, ctx, clusterClient(t, Options{}), table, n)
	c := clusterClient(t, Options{OperationTimeout: 30 * time.Second})
	var wg sync.WaitGroup
	startGun := make(chan struct{})
	errs := make(chan error, 72)
	for r := 0; r < 24; r++ {
		for k := 0; k < 3; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var res Result
				<-startGun
				if err := readRow(ctx, c, table, r*100+k*33, n, &res); err != nil {
					errs <- err
				}
			}()
		}
	}
	t0 := time.Now()
	close(startGun)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st := c.Stats()
	t.Logf("72 cold reads over 24 regions in %v: %d meta lookups, at most %d at once, %d dials", time.Since(t0).Round(time.Millisecond),
		st.MetaLookups, st.MaxMetaLookupsInFlight, st.Dials)
	if st.MaxMetaLookupsInFlight > maxLookups || st.MetaLookups < 1 || st.MetaLookups > 72 {
		t.Errorf("%d meta lookups, at most %d in flight; want 1-72, at most %d in flight", st.MetaLookups, st.MaxMetaLookupsInFlight, maxLookups)
	}
	if st.Dials > 3 { // the three RegionServers (meta is on one of them), once each
		t.Errorf("%d dials for 3 RegionServers; want at most 3 (one per server, shared)", st.Dials)
	}
}
