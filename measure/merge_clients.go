package measure

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// What N client machines add to a merge: clocks that differ a little,
// clients that start late or stop early (killed, out of work), and result
// files written by different gobench versions or configurations.

// SkewBound is the start difference [Merge] takes for clock skew between
// the clients' machines (and launch jitter): a client whose start is at
// most SkewBound after the first client's has its intervals aligned by its
// own start (shifted so that it starts with the first client), so that a
// clock a few hundred milliseconds off does not smear the merged time
// series. A larger difference is real (or the clocks are further apart
// than clocks kept by NTP are): that client keeps its own clock's times,
// and Merge warns.
const SkewBound = time.Second

// LiveWindow is the window in which every client that ran throughout ran:
// the intersection of the spans of the clients that neither started late
// nor ended early (see [Merge]).
const LiveWindow ThroughputWindow = "live"

// lateBound is how far from the union's start (end) a client's start (end)
// may be before the client counts as late (ended early): SkewBound, or
// 1-WarnOverlap of the union when that is longer.
func lateBound(union time.Duration) time.Duration {
	return max(SkewBound, time.Duration((1-WarnOverlap)*float64(union)))
}

// classifyClients sets m.Late, m.Early and m.Shift, and warns about
// starts further apart than SkewBound.
func (m *Merged) classifyClients() {
	n := len(m.Docs)
	m.Shift = make([]time.Duration, n)
	if n < 2 {
		return
	}
	bound := lateBound(m.Union.Duration())
	var skewed []string
	for k, d := range m.Docs {
		after, before := d.Start.Sub(m.Union.Start), m.Union.End.Sub(d.End)
		switch {
		case after <= SkewBound:
			m.Shift[k] = -after
		case after > bound:
			m.Late = append(m.Late, k)
		default:
			skewed = append(skewed, fmt.Sprintf("%s +%v", m.Names[k], after.Round(time.Millisecond)))
		}
		if before > bound {
			m.Early = append(m.Early, k)
		}
	}
	if len(skewed) > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("clients started more than %v after the first one (%s): their clocks differ by more than NTP keeps them, or they started later; their intervals keep their own clocks' times", SkewBound, listSome(skewed)))
	}
	if len(m.Late) > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("clients started late, more than %v after the first one (%s): they did not load the system from the start", bound.Round(time.Millisecond), m.describe(m.Late, true)))
	}
	if len(m.Early) > 0 {
		m.Warnings = append(m.Warnings, fmt.Sprintf("clients ended early, more than %v before the last one (%s): killed, stopped, or out of work", bound.Round(time.Millisecond), m.describe(m.Early, false)))
	}
}

// describe names clients with how late they started (or how early they
// ended).
func (m *Merged) describe(ks []int, start bool) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		if start {
			s[i] = fmt.Sprintf("%s +%v", m.Names[k], m.Docs[k].Start.Sub(m.Union.Start).Round(time.Millisecond))
		} else {
			s[i] = fmt.Sprintf("%s -%v", m.Names[k], m.Union.End.Sub(m.Docs[k].End).Round(time.Millisecond))
		}
	}
	return listSome(s)
}

// liveWindow is the intersection of the spans of the clients that are
// neither late nor early, and their number (0: none).
func (m *Merged) liveWindow() (Span, int) {
	short := map[int]bool{}
	for _, k := range append(slices.Clone(m.Late), m.Early...) {
		short[k] = true
	}
	var w Span
	live := 0
	for k, d := range m.Docs {
		if short[k] {
			continue
		}
		if live == 0 {
			w = Span{d.Start, d.End}
		} else {
			if d.Start.After(w.Start) {
				w.Start = d.Start
			}
			if d.End.Before(w.End) {
				w.End = d.End
			}
		}
		live++
	}
	return w, live
}

// listSome joins at most 10 items, then says how many more there are.
func listSome(items []string) string {
	const most = 10
	if len(items) <= most {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:most], ", ") + fmt.Sprintf(" and %d more", len(items)-most)
}

// MissingClients returns the client numbers 0..gobench.clients-1 that none
// of the documents carries (as gobench.client), when the first document
// names gobench.clients and every document its gobench.client; nil
// otherwise.
func MissingClients(docs []*Document) []int {
	if len(docs) == 0 {
		return nil
	}
	n, err := strconv.Atoi(docs[0].Config[ClientsKey])
	if err != nil || n < 1 {
		return nil
	}
	have := make([]bool, n)
	for _, d := range docs {
		c, err := strconv.Atoi(d.Config[ClientKey])
		if err != nil {
			return nil
		}
		if c >= 0 && c < n {
			have[c] = true
		}
	}
	var out []int
	for c, ok := range have {
		if !ok {
			out = append(out, c)
		}
	}
	return out
}

// VersionWarning names the gobench versions that wrote the documents when
// they are not all the same ("" when they are).
func VersionWarning(docs []*Document, labels []string) string {
	by := map[string][]string{}
	var order []string
	for k, d := range docs {
		v := d.Version
		if v == "" {
			v = "unrecorded"
		}
		if _, ok := by[v]; !ok {
			order = append(order, v)
		}
		by[v] = append(by[v], labels[k])
	}
	if len(order) < 2 {
		return ""
	}
	parts := make([]string, len(order))
	for i, v := range order {
		parts[i] = fmt.Sprintf("%s (%s)", v, listSome(by[v]))
	}
	return "the result files come from different gobench versions: " + strings.Join(parts, "; ") + ": their figures may not compare (run one build on every client)"
}

// mustAgree are the settings whose difference makes a merge meaningless
// (a load's inserts added to a run's operation mix), with the value a
// document without the key has.
var mustAgree = []struct{ key, missing string }{
	{"dotransactions", "true"},
	{"workload", "core"},
}

// checkMergeable refuses documents of different phases or workload kinds,
// naming the key and the files.
func checkMergeable(docs []*Document, labels []string) error {
	for _, a := range mustAgree {
		val := func(d *Document) string {
			v, ok := d.Config[a.key]
			if !ok {
				return a.missing
			}
			if a.key == "workload" && v == "site.ycsb.workloads.CoreWorkload" {
				return "core"
			}
			return v
		}
		v0 := val(docs[0])
		for k, d := range docs[1:] {
			if v := val(d); v != v0 {
				return fmt.Errorf("merge: %s and %s ran different %s (%s=%q and %q): their operations do not add up to one run; merge the result files of one phase and one workload", labels[0], labels[k+1], map[string]string{"dotransactions": "phases", "workload": "workload kinds"}[a.key], a.key, v0, v)
			}
		}
	}
	return nil
}
