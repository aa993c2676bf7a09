package measure

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// clientDoc is spreadDoc with the client's number among n.
func clientDoc(t *testing.T, t0 time.Time, start, end time.Duration, ops int64, client, n string) *Document {
	d := spreadDoc(t, t0, start, end, ops)
	d.Config = map[string]string{ClientsKey: n, ClientKey: client}
	return d
}

// A client whose clock is 700 ms ahead: by wall clock its one-second
// intervals would straddle the bins (the first and last bin with one
// client, a spike pattern); aligned by its own start, every bin holds one
// interval of each client.
func TestMergeAlignsSkewedClocksByEachClientsStart(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	skew := 700 * time.Millisecond
	docs := []*Document{
		clientDoc(t, t0, 0, 10*time.Second, 10000, "0", "2"),
		clientDoc(t, t0, skew, skew+10*time.Second, 10000, "1", "2"),
	}
	m, err := Merge(docs, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(m.Warnings, "\n"); strings.Contains(w, "started") {
		t.Errorf("warnings %q for a skew within SkewBound", w)
	}
	if !reflect.DeepEqual(m.Shift, []time.Duration{0, -skew}) {
		t.Errorf("shift %v, want [0 %v]", m.Shift, -skew)
	}
	if len(m.Intervals) != 10 {
		t.Fatalf("%d merged intervals, want 10", len(m.Intervals))
	}
	for i, iv := range m.Intervals {
		if iv.Ops != 2000 || !iv.Start.Equal(t0.Add(time.Duration(i)*time.Second)) {
			t.Errorf("interval %d: %d ops from %v, want 2000 (1000 per client) from %v", i, iv.Ops, iv.Start, t0.Add(time.Duration(i)*time.Second))
		}
	}
	// The totals are exact whatever the alignment.
	if m.Total.Ops != 20000 || m.Window != CommonWindow {
		t.Errorf("total %d ops over the %s window, want 20000 over common", m.Total.Ops, m.Window)
	}
}

// A start difference beyond SkewBound (but not late) is warned about, and
// that client keeps its clock's times.
func TestMergeWarnsAboutSkewBeyondTheBound(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := time.Second
	docs := []*Document{
		clientDoc(t, t0, 0, 100*s, 100000, "0", "2"),
		clientDoc(t, t0, 3*s, 100*s, 97000, "1", "2"),
	}
	m, err := Merge(docs, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(m.Warnings, "\n")
	if !strings.Contains(w, "clients started more than 1s after the first one (1 +3s)") {
		t.Errorf("warnings %q, want the skew of client 1", w)
	}
	if m.Shift[1] != 0 || len(m.Late) != 0 || m.Window != CommonWindow {
		t.Errorf("shift %v, late %v, window %s: want client 1 unshifted, not late, common window", m.Shift, m.Late, m.Window)
	}
}

// Three clients; client 2 dies at 60 s of 100. The common window of all
// three is its 60 s, in which all three loaded the system: 3000 ops/s,
// more than the system did over the run. The live window is the 100 s the
// other two shared, with client 2's operations inside it: 2600 ops/s.
func TestMergeLiveWindowWhenAClientDies(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := time.Second
	docs := []*Document{
		clientDoc(t, t0, 0, 100*s, 100000, "0", "3"),
		clientDoc(t, t0, 0, 100*s, 100000, "1", "3"),
		clientDoc(t, t0, 0, 60*s, 60000, "2", "3"),
	}
	m, err := Merge(docs, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Window != LiveWindow || relErr(m.Throughput, 2600) > 1e-9 || m.Measured != (Span{t0, t0.Add(100 * s)}) {
		t.Errorf("throughput %v over the %s window %v, want 2600 over the live window of 100 s", m.Throughput, m.Window, m.Measured)
	}
	if !reflect.DeepEqual(m.Early, []int{2}) || len(m.Late) != 0 {
		t.Errorf("early %v, late %v; want early [2]", m.Early, m.Late)
	}
	w := strings.Join(m.Warnings, "\n")
	for _, want := range []string{"clients ended early, more than 10s before the last one (2 -40s)", "the throughput is over the 1m40s in which the 2 clients that ran throughout all ran"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings %q lack %q", w, want)
		}
	}
	lines := m.Lines()
	found := false
	for _, l := range lines {
		if l.Metric == "OVERALL" && l.Measurement == "LiveWindow(ms)" {
			found = l.Value == Int(100000)
		}
	}
	if !found {
		t.Errorf("no [OVERALL], LiveWindow(ms), 100000 line in %v", lines)
	}
}

// A client that starts late is named; the live window is the others'.
func TestMergeNamesALateClient(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := time.Second
	docs := []*Document{
		clientDoc(t, t0, 0, 100*s, 100000, "0", "3"),
		clientDoc(t, t0, 0, 100*s, 100000, "1", "3"),
		clientDoc(t, t0, 70*s, 100*s, 30000, "2", "3"),
	}
	m, err := Merge(docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(m.Warnings, "\n")
	if !strings.Contains(w, "clients started late, more than 10s after the first one (2 +1m10s)") || !reflect.DeepEqual(m.Late, []int{2}) {
		t.Errorf("late %v, warnings %q: want client 2 named late", m.Late, w)
	}
	if m.Window != LiveWindow || relErr(m.Throughput, 2300) > 1e-9 {
		t.Errorf("throughput %v over %s, want 2300 over the live window", m.Throughput, m.Window)
	}
}

// A client killed before it wrote its file: the merge of the others names
// the missing client number.
func TestMergeNamesMissingClients(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	docs := []*Document{
		clientDoc(t, t0, 0, 10*time.Second, 10000, "0", "3"),
		clientDoc(t, t0, 0, 10*time.Second, 10000, "2", "3"),
	}
	m, err := Merge(docs, []string{"c0.json", "c2.json"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Missing, []int{1}) || !strings.Contains(strings.Join(m.Warnings, "\n"), "gobench.clients=3 but 2 result files merged: no result from client 1") {
		t.Errorf("missing %v, warnings %q: want client 1 named", m.Missing, m.Warnings)
	}
	if got := MissingClients(docs[:1]); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("MissingClients of client 0 alone = %v, want [1 2]", got)
	}
	docs[1].Config = nil // without its number nothing can be said
	if got := MissingClients(docs); got != nil {
		t.Errorf("MissingClients without client numbers = %v, want nil", got)
	}
}

func TestMergeWarnsAboutVersions(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(v string) *Document {
		d := spreadDoc(t, t0, 0, 2*time.Second, 2000)
		d.Version = v
		return d
	}
	m, err := Merge([]*Document{mk("0.1.0"), mk("0.2.0"), mk("0.1.0"), mk("")}, []string{"a", "b", "c", "d"})
	if err != nil {
		t.Fatal(err)
	}
	want := "the result files come from different gobench versions: 0.1.0 (a, c); 0.2.0 (b); unrecorded (d)"
	if w := strings.Join(m.Warnings, "\n"); !strings.Contains(w, want) {
		t.Errorf("warnings %q, want %q", w, want)
	}
	if doc, err := m.Document(); err != nil || doc.Version != "" {
		t.Errorf("merged document of mixed versions says version %q (%v), want none", doc.Version, err)
	}
	same, err := Merge([]*Document{mk("0.1.0"), mk("0.1.0")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err := same.Document(); err != nil || len(same.Warnings) != 0 || doc.Version != "0.1.0" {
		t.Errorf("one version: warnings %q, merged version %q (%v); want none and 0.1.0", same.Warnings, doc.Version, err)
	}
}

// A load and a run do not add up: refused, naming the key and the files.
// The workload's Java class name is the core kind.
func TestMergeRefusesDifferentPhasesOrKinds(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(cfg map[string]string) *Document {
		d := spreadDoc(t, t0, 0, 2*time.Second, 2000)
		d.Config = cfg
		return d
	}
	for _, c := range []struct {
		name string
		a, b map[string]string
		want string // "" accepted
	}{
		{"load and run", map[string]string{"dotransactions": "false"}, map[string]string{"dotransactions": "true"},
			`merge: a.json and b.json ran different phases (dotransactions="false" and "true")`},
		{"load and default", map[string]string{"dotransactions": "false"}, nil, `dotransactions="false" and "true"`},
		{"kinds", map[string]string{"workload": "core"}, map[string]string{"workload": "dfsio"}, `different workload kinds (workload="core" and "dfsio")`},
		{"class name", map[string]string{"workload": "site.ycsb.workloads.CoreWorkload"}, nil, ""},
	} {
		_, err := Merge([]*Document{mk(c.a), mk(c.b)}, []string{"a.json", "b.json"})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want accepted", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
}
