package hive

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Answers are the five built-in queries' results computed in Go over the
// generated rows (no files, no Hive): the reference every answer of Hive
// is checked against.
type Answers struct {
	NameCount      int64                    // customers named 'Asher MATTHEWS'
	CategoryCount  [len(categories)]int64   // books per category
	Revenue2008_10 [len(categories)]int64   // cents, transactions of 2008-2010
	RevenueWACANY  [len(categories)]int64   // cents, customers in WA, CA, NY
	HasCategory    [len(categories)]bool    // a category with at least one book
	joined         [2][len(categories)]bool // a category with at least one joined row (JOIN, JOIN3)
}

// Answers computes the reference with workers goroutines, each over its
// own id range, generating every row on the fly.
func (d *Dataset) Answers(ctx context.Context, workers int) (*Answers, error) {
	workers = max(workers, 1)
	asher, matthews := index(firstNames[:], "Asher"), index(lastNames[:], "MATTHEWS")
	wa, ca, ny := uint8(index(states[:], "WA")), uint8(index(states[:], "CA")), uint8(index(states[:], "NY"))
	parts := make([]Answers, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			a := &parts[w]
			for _, t := range Tables() {
				n := d.Rows[t]
				lo, hi := 1+n*int64(w)/int64(workers), n*int64(w+1)/int64(workers)
				for id := lo; id <= hi; id++ {
					if id&0xffff == 0 && ctx.Err() != nil {
						return
					}
					switch t {
					case Books:
						b := d.Book(id)
						a.CategoryCount[b.Category]++
						a.HasCategory[b.Category] = true
					case Customers:
						c := d.Customer(id)
						if int(c.First) == asher && int(c.Last) == matthews {
							a.NameCount++
						}
					case Transactions:
						tr := d.Transaction(id)
						b := d.Book(tr.BookID)
						rev := b.PriceCents * tr.Quantity
						if y := tr.Year(); y >= 2008 && y <= 2010 {
							a.Revenue2008_10[b.Category] += rev
							a.joined[0][b.Category] = true
						}
						if s := d.Customer(tr.CustomerID).State; s == wa || s == ca || s == ny {
							a.RevenueWACANY[b.Category] += rev
							a.joined[1][b.Category] = true
						}
					}
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var a Answers
	for _, p := range parts {
		a.NameCount += p.NameCount
		for c := range categories {
			a.CategoryCount[c] += p.CategoryCount[c]
			a.Revenue2008_10[c] += p.Revenue2008_10[c]
			a.RevenueWACANY[c] += p.RevenueWACANY[c]
			a.HasCategory[c] = a.HasCategory[c] || p.HasCategory[c]
			a.joined[0][c] = a.joined[0][c] || p.joined[0][c]
			a.joined[1][c] = a.joined[1][c] || p.joined[1][c]
		}
	}
	return &a, nil
}

func index(list []string, s string) int {
	i := slices.Index(list, s)
	if i < 0 {
		panic("hive: " + s + " is not in the word list") // a programming error in words.go
	}
	return i
}

// group is one row of a GROUP BY ... ORDER BY value DESC LIMIT 10 answer.
type group struct {
	key   string
	value int64 // count, or cents
}

// Expected returns the rows built-in query q (1-5) must return, in order
// (ties broken by name; Hive may order tied rows either way, which
// [Answers.Check] accepts).
func (a *Answers) Expected(q int) [][]string {
	switch q {
	case 1:
		return [][]string{{strconv.FormatInt(a.NameCount, 10)}}
	case 2:
		return rows(a.top(a.CategoryCount[:], a.HasCategory[:]), false)
	case 3, 5:
		return rows(a.top(a.Revenue2008_10[:], a.joined[0][:]), true)
	case 4:
		return rows(a.top(a.RevenueWACANY[:], a.joined[1][:]), true)
	}
	return nil
}

func rows(g []group, cents bool) [][]string {
	out := make([][]string, len(g))
	for i, r := range g {
		v := strconv.FormatInt(r.value, 10)
		if cents {
			v = string(AppendCents(nil, r.value))
		}
		out[i] = []string{r.key, v}
	}
	return out
}

// all returns every group with a row, by value descending then name.
func (a *Answers) all(vals []int64, present []bool) []group {
	var g []group
	for c, v := range vals {
		if present[c] {
			g = append(g, group{categories[c], v})
		}
	}
	slices.SortFunc(g, func(x, y group) int {
		if x.value != y.value {
			if x.value > y.value {
				return -1
			}
			return 1
		}
		return strings.Compare(x.key, y.key)
	})
	return g
}

func (a *Answers) top(vals []int64, present []bool) []group {
	g := a.all(vals, present)
	return g[:min(len(g), 10)]
}

// Check compares Hive's rows for built-in query q (1-5) with the
// reference. Values are compared as numbers (Hive may print a decimal
// with more or fewer trailing zeros); rows tied on the ordered value may
// come in any order, and at the tenth place any of the tied groups may be
// the one returned.
func (a *Answers) Check(q int, got [][]string) error {
	if q == 1 {
		want := a.NameCount
		if len(got) != 1 || len(got[0]) != 1 {
			return fmt.Errorf("got %d rows %q, want one row with one value %d", len(got), got, want)
		}
		n, err := strconv.ParseInt(got[0][0], 10, 64)
		if err != nil || n != want {
			return fmt.Errorf("count %q, want %d", got[0][0], want)
		}
		return nil
	}
	var vals []int64
	var present []bool
	cents := true
	switch q {
	case 2:
		vals, present, cents = a.CategoryCount[:], a.HasCategory[:], false
	case 3, 5:
		vals, present = a.Revenue2008_10[:], a.joined[0][:]
	case 4:
		vals, present = a.RevenueWACANY[:], a.joined[1][:]
	default:
		return fmt.Errorf("no reference for query %d", q)
	}
	all := a.all(vals, present)
	byKey := map[string]int64{}
	for _, g := range all {
		byKey[g.key] = g.value
	}
	want := min(len(all), 10)
	if len(got) != want {
		return fmt.Errorf("%d rows, want %d (first expected %q)", len(got), want, a.Expected(q)[:min(want, 1)])
	}
	seen := map[string]bool{}
	for i, r := range got {
		if len(r) != 2 {
			return fmt.Errorf("row %d %q: want 2 values", i+1, r)
		}
		v, err := parseValue(r[1], cents)
		if err != nil {
			return fmt.Errorf("row %d %q: %v", i+1, r, err)
		}
		exp, ok := byKey[r[0]]
		switch {
		case !ok:
			return fmt.Errorf("row %d %q: no such group in the data", i+1, r)
		case seen[r[0]]:
			return fmt.Errorf("row %d %q: group twice", i+1, r)
		case v != exp:
			return fmt.Errorf("row %d %q: want %s", i+1, r, rows([]group{{r[0], exp}}, cents)[0][1])
		case v != all[i].value:
			return fmt.Errorf("row %d %q: out of order, want value %s at this place (%q)", i+1, r, rows(all[i:i+1], cents)[0][1], all[i].key)
		}
		seen[r[0]] = true
	}
	return nil
}

// parseValue reads a count, or a decimal as cents (exactly, from its
// digits: "1234.5", "1234.50" and "1234.500" are all 123450).
func parseValue(s string, cents bool) (int64, error) {
	if !cents {
		return strconv.ParseInt(s, 10, 64)
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	ip, fp, _ := strings.Cut(s, ".")
	fp = strings.TrimRight(fp, "0")
	if len(fp) > 2 {
		return 0, errors.New("more than two decimal places")
	}
	fp += strings.Repeat("0", 2-len(fp))
	i, err1 := strconv.ParseInt(ip, 10, 64)
	f, err2 := strconv.ParseInt(fp, 10, 64)
	if err := errors.Join(err1, err2); err != nil || ip == "" {
		return 0, fmt.Errorf("not a decimal: %q", s)
	}
	v := i*100 + f
	if neg {
		v = -v
	}
	return v, nil
}
