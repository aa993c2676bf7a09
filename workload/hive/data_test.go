package hive

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The data set is part of what a result means: these digests pin the first
// 1000 rows of each table for seed 1. A change of the generator must bump
// GeneratorVersion and these digests together.
func TestGoldenRows(t *testing.T) {
	d := Dataset{Seed: 1, Rows: [numTables]int64{1000, 1000, 1000}}
	want := map[Table]string{
		Books:        "e18e8ab413344500",
		Customers:    "12cfd139bc0cec9f",
		Transactions: "168639bf1f7b8154",
	}
	for _, tb := range Tables() {
		h := sha256.New()
		var line []byte
		for id := int64(1); id <= 1000; id++ {
			line = d.AppendRow(line[:0], tb, id)
			h.Write(line)
		}
		got := hex.EncodeToString(h.Sum(nil))[:16]
		if got != want[tb] {
			t.Errorf("%s: digest %s, want %s (bump GeneratorVersion if the generator changed on purpose)", tb, got, want[tb])
		}
	}
	var b []byte
	for _, tb := range Tables() {
		b = d.AppendRow(b, tb, 7)
	}
	if want := "7|The Midnight Mountain|Brian Hughes|SELF-HELP|11.99\n7|Adam PARKER|7674 Prospect Dr|Hudson|IN|30478\n7|795|769|2|2002-05-13 22:50:13\n"; string(b) != want {
		t.Errorf("row 7:\n%s\nwant\n%s", b, want)
	}
}

func TestRowsArePureFunctions(t *testing.T) {
	a := Dataset{Seed: 42, Rows: [numTables]int64{500, 300, 2000}}
	b := a
	for _, tb := range Tables() {
		for _, id := range []int64{1, 17, 299, 1999} {
			x, y := string(a.AppendRow(nil, tb, id)), string(b.AppendRow(nil, tb, id))
			if x != y {
				t.Fatalf("%s row %d differs between two calls", tb, id)
			}
		}
	}
	c := a
	c.Seed = 43
	if string(a.AppendRow(nil, Customers, 5)) == string(c.AppendRow(nil, Customers, 5)) {
		t.Error("seeds 42 and 43 give the same customer 5")
	}
}

func TestAppendRowAllocatesNothing(t *testing.T) {
	d := NewDataset(1, Scale{Rows: 100000})
	buf := make([]byte, 0, 256)
	for _, tb := range Tables() {
		id := int64(0)
		if n := testing.AllocsPerRun(1000, func() { id++; buf = d.AppendRow(buf[:0], tb, id) }); n != 0 {
			t.Errorf("%s: %.1f allocations per row", tb, n)
		}
	}
}

func TestCivilMatchesTime(t *testing.T) {
	r := newRng(1, Transactions, 1)
	for range 10000 {
		s := epoch2000 + r.below(spanSecs)
		want := time.Unix(s, 0).UTC().Format("2006-01-02 15:04:05")
		if got := string(appendTime(nil, s)); got != want {
			t.Fatalf("appendTime(%d) = %s, want %s", s, got, want)
		}
		if y := (Transaction{Time: s}).Year(); y != time.Unix(s, 0).UTC().Year() {
			t.Fatalf("Year(%d) = %d", s, y)
		}
	}
	if got := string(appendTime(nil, epoch2000+spanSecs-1)); got != "2020-12-31 23:59:59" {
		t.Errorf("last second %s", got)
	}
}

func TestParseScale(t *testing.T) {
	for in, want := range map[string]Scale{
		"16MB": {Bytes: 16 << 20}, "4GB": {Bytes: 4 << 30}, "1.5 kb": {Bytes: 1536}, "100000": {Rows: 100000},
		"20000rows": {Rows: 20000}, "7 rows": {Rows: 7}, "512b": {Bytes: 512},
	} {
		if got, err := ParseScale(in); err != nil || got != want {
			t.Errorf("ParseScale(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-5", "abc", "12XB", "0rows", "-1MB"} {
		if _, err := ParseScale(in); err == nil {
			t.Errorf("ParseScale(%q) accepted", in)
		}
	}
}

// Each table of a byte-scaled data set is within 3 % of the size asked for.
func TestScaleBytes(t *testing.T) {
	dir := t.TempDir()
	d := NewDataset(1, Scale{Bytes: 2 << 20})
	st, err := d.Generate(context.Background(), LocalDir(dir), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range Tables() {
		if r := float64(st.Bytes[tb]) / (2 << 20); r < 0.97 || r > 1.03 {
			t.Errorf("%s: %d bytes (%d rows), want about 2 MiB", tb, st.Bytes[tb], d.Rows[tb])
		}
	}
}

// The files do not depend on how many goroutines wrote them, and a second
// generation of the same data set reuses them.
func TestGenerateParallelAndReuse(t *testing.T) {
	d := Dataset{Seed: 9, Rows: [numTables]int64{25000, 30000, 70000}}
	one, four := t.TempDir(), t.TempDir()
	ctx := context.Background()
	if _, err := d.Generate(ctx, LocalDir(one), 1); err != nil {
		t.Fatal(err)
	}
	st, err := d.Generate(ctx, LocalDir(four), 4)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files[Transactions] < 4 {
		t.Errorf("transactions in %d files with 4 goroutines, want at least 4", st.Files[Transactions])
	}
	for _, tb := range Tables() {
		a, b := readTable(t, one, tb), readTable(t, four, tb)
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between 1 and 4 goroutines (%d and %d bytes)", tb, len(a), len(b))
		}
		if n := bytes.Count(a, []byte("\n")); int64(n) != d.Rows[tb] {
			t.Errorf("%s has %d lines, want %d", tb, n, d.Rows[tb])
		}
	}
	st, err = d.Generate(ctx, LocalDir(four), 4)
	if err != nil || !st.Reuse {
		t.Errorf("second generation: reuse=%v err=%v, want reuse", st.Reuse, err)
	}
	other := d
	other.Seed = 10
	if st, err := other.Generate(ctx, LocalDir(four), 2); err != nil || st.Reuse {
		t.Errorf("another seed over the same directory: reuse=%v err=%v, want a new generation", st.Reuse, err)
	}
	if a, b := readTable(t, one, Books), readTable(t, four, Books); bytes.Equal(a, b) {
		t.Error("regenerating with another seed left the old books")
	}
}

func readTable(t *testing.T, dir string, tb Table) []byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, tb.String(), "part-*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no part files (%v)", tb, err)
	}
	sort.Strings(files)
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// The reference answers equal the five queries computed independently from
// the generated text files (parsed back, joined with maps).
func TestAnswersMatchTheFiles(t *testing.T) {
	d := Dataset{Seed: 3, Rows: [numTables]int64{4000, 6000, 30000}}
	dir := t.TempDir()
	if _, err := d.Generate(context.Background(), LocalDir(dir), 2); err != nil {
		t.Fatal(err)
	}
	a, err := d.Answers(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	fields := func(tb Table) [][]string {
		var out [][]string
		sc := bufio.NewScanner(bytes.NewReader(readTable(t, dir, tb)))
		for sc.Scan() {
			out = append(out, strings.Split(sc.Text(), string(Delimiter)))
		}
		return out
	}
	cents := func(s string) int64 {
		v, err := parseValue(s, true)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	type book struct {
		cat   string
		price int64
	}
	books := map[string]book{}
	count := map[string]int64{}
	for _, f := range fields(Books) {
		books[f[0]] = book{f[3], cents(f[4])}
		count[f[3]]++
	}
	state := map[string]string{}
	var asher int64
	for _, f := range fields(Customers) {
		state[f[0]] = f[4]
		if f[1] == "Asher MATTHEWS" {
			asher++
		}
	}
	rev3, rev4 := map[string]int64{}, map[string]int64{}
	for _, f := range fields(Transactions) {
		b, ok := books[f[2]]
		if !ok {
			t.Fatalf("transaction %s: book %s does not exist", f[0], f[2])
		}
		q, _ := strconv.ParseInt(f[3], 10, 64)
		y, _ := strconv.Atoi(f[4][:4])
		if y >= 2008 && y <= 2010 {
			rev3[b.cat] += b.price * q
		}
		switch state[f[1]] {
		case "WA", "CA", "NY":
			rev4[b.cat] += b.price * q
		case "":
			t.Fatalf("transaction %s: customer %s does not exist", f[0], f[1])
		}
	}
	top := func(m map[string]int64, dec bool) [][]string {
		type kv struct {
			k string
			v int64
		}
		var l []kv
		for k, v := range m {
			l = append(l, kv{k, v})
		}
		sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v || l[i].v == l[j].v && l[i].k < l[j].k })
		var out [][]string
		for _, e := range l[:min(10, len(l))] {
			s := strconv.FormatInt(e.v, 10)
			if dec {
				s = string(AppendCents(nil, e.v))
			}
			out = append(out, []string{e.k, s})
		}
		return out
	}
	want := map[int][][]string{
		1: {{strconv.FormatInt(asher, 10)}}, 2: top(count, false), 3: top(rev3, true), 4: top(rev4, true), 5: top(rev3, true),
	}
	for q := 1; q <= 5; q++ {
		if got := a.Expected(q); !slices.EqualFunc(got, want[q], slices.Equal) {
			t.Errorf("query %d: reference %q, from the files %q", q, got, want[q])
		}
		if err := a.Check(q, want[q]); err != nil {
			t.Errorf("query %d: Check of the files' answer: %v", q, err)
		}
	}
	if asher == 0 {
		t.Error("no 'Asher MATTHEWS' among 6000 customers: the scan query would count 0")
	}
}

func TestCheck(t *testing.T) {
	var a Answers
	for c := range categories {
		a.CategoryCount[c] = int64(100 - c)
		a.HasCategory[c] = true
	}
	a.CategoryCount[1] = a.CategoryCount[2]  // tie at places 2 and 3
	a.CategoryCount[10] = a.CategoryCount[9] // tie at the tenth place
	exp := a.Expected(2)
	if err := a.Check(2, exp); err != nil {
		t.Fatalf("expected rows rejected: %v", err)
	}
	swapped := slices.Clone(exp)
	swapped[1], swapped[2] = swapped[2], swapped[1]
	if err := a.Check(2, swapped); err != nil {
		t.Errorf("tied rows swapped: %v", err)
	}
	other := slices.Clone(exp)
	other[9] = []string{categories[10], exp[9][1]}
	if err := a.Check(2, other); err != nil {
		t.Errorf("the other group tied at the tenth place: %v", err)
	}
	for name, rows := range map[string][][]string{
		"wrong value": append(slices.Clone(exp[:9]), []string{exp[9][0], "1"}),
		"out of order": func() [][]string {
			r := slices.Clone(exp)
			r[0], r[3] = r[3], r[0]
			return r
		}(),
		"missing row":   exp[:9],
		"group twice":   append(slices.Clone(exp[:9]), exp[0]),
		"unknown group": append(slices.Clone(exp[:9]), []string{"NO SUCH", exp[9][1]}),
	} {
		if err := a.Check(2, rows); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	a.Revenue2008_10[0], a.joined[0][0] = 123450, true
	for _, s := range []string{"1234.5", "1234.50", "1234.500"} {
		if err := a.Check(3, [][]string{{categories[0], s}}); err != nil {
			t.Errorf("decimal %s: %v", s, err)
		}
	}
	if err := a.Check(3, [][]string{{categories[0], "1234.51"}}); err == nil {
		t.Error("1234.51 accepted for 1234.50")
	}
	a.NameCount = 3
	if a.Check(1, [][]string{{"3"}}) != nil || a.Check(1, [][]string{{"4"}}) == nil || a.Check(1, nil) == nil {
		t.Error("scan count check")
	}
}
