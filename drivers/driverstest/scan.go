package driverstest

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gobench/gobench/drivers"
)

// scanKeys are chosen so that byte order differs from numeric order.
var scanKeys = []string{"user9", "user10", "user1", "user99", "user20", "user2", "user3", "user11"}

// scanEnv inserts scanKeys in the order above and returns them sorted.
func (h *harness) scanEnv(t *testing.T) (*env, []string) {
	e := h.setup(t)
	for _, k := range scanKeys {
		e.insert(t, e.conn, k, record(k, 0))
	}
	sorted := slices.Clone(scanKeys)
	slices.Sort(sorted)
	return e, sorted
}

// unsupportedScan reports whether the driver declared NoScan, after
// checking that Scan then fails with errors.ErrUnsupported.
func (h *harness) unsupportedScan(t *testing.T) bool {
	if !h.cfg.noScan {
		return false
	}
	e := h.setup(t)
	err := e.conn.Scan(t.Context(), e.table, []byte("user"), 10, nil, func([]byte, *drivers.Record) error { return nil })
	if !errors.Is(err, errors.ErrUnsupported) || drivers.Classify(err) != drivers.NotImplemented {
		t.Errorf("Scan on a driver without scan = %v, want errors.ErrUnsupported", err)
	}
	return true
}

// scan collects the keys a scan visits, checking each record against the
// value written for its key restricted to fields.
func (e *env) scan(t *testing.T, start string, count int, fields drivers.FieldSet) ([]string, error) {
	var keys []string
	err := e.conn.Scan(t.Context(), e.table, []byte(start), count, fields, func(key []byte, r *drivers.Record) error {
		k := string(key)
		want := record(k, 0)
		if fields != nil {
			want = subset(want, fields)
		}
		if err := diff(r, want); err != nil {
			return fmt.Errorf("record %q: %w", k, err)
		}
		keys = append(keys, k)
		return nil
	})
	return keys, err
}

// expectScan scans and compares the visited keys with want.
func (e *env) expectScan(t *testing.T, start string, count int, fields drivers.FieldSet, want []string) {
	t.Helper()
	e.eventually(t, fmt.Sprintf("Scan(start %q, count %d, fields %s)", start, count, fieldsString(fields)), func() error {
		if err := flush(t.Context(), e.conn); err != nil {
			return err
		}
		got, err := e.scan(t, start, count, fields)
		if err != nil {
			return err
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("keys %q, want %q", got, want)
		}
		return nil
	})
}

func (h *harness) testScanOrder(t *testing.T) {
	if h.unsupportedScan(t) {
		return
	}
	e, sorted := h.scanEnv(t)
	e.expectScan(t, "user", len(sorted), nil, sorted)
	e.expectScan(t, sorted[0], len(sorted), nil, sorted)
}

func (h *harness) testScanLimits(t *testing.T) {
	if h.unsupportedScan(t) {
		return
	}
	e, sorted := h.scanEnv(t)
	// sorted: user1 user10 user11 user2 user20 user3 user9 user99
	from := func(k string) []string { return sorted[slices.Index(sorted, k):] }
	cases := []struct {
		name  string
		start string
		count int
		want  []string
	}{
		{"count beyond the end", "user3", 100, from("user3")},
		{"count 1", "user1", 1, []string{"user1"}},
		{"count 1 at the last key", "user99", 1, []string{"user99"}},
		{"start between keys", "user15", 2, []string{"user2", "user20"}},
		{"start on a key is inclusive", "user20", 2, []string{"user20", "user3"}},
		{"start before every key", "a", 3, sorted[:3]},
		{"start past the end", "user999", 5, nil},
		{"start far past the end", "zzz", 5, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { e.expectScan(t, c.start, c.count, nil, c.want) })
	}
}

func (h *harness) testScanFields(t *testing.T) {
	if h.unsupportedScan(t) {
		return
	}
	e, sorted := h.scanEnv(t)
	for _, fs := range []drivers.FieldSet{{2}, {0, NumFields - 1}} {
		e.expectScan(t, "user", len(sorted), fs, sorted)
	}
}

// testScanStop checks that an error from the callback stops the scan and
// is returned.
func (h *harness) testScanStop(t *testing.T) {
	if h.unsupportedScan(t) {
		return
	}
	e, _ := h.scanEnv(t)
	stop := errors.New("stop here")
	e.eventually(t, "Scan stopped by its callback", func() error {
		if err := flush(t.Context(), e.conn); err != nil {
			return err
		}
		calls := 0
		err := e.conn.Scan(t.Context(), e.table, []byte("user"), 100, nil, func([]byte, *drivers.Record) error {
			calls++
			if calls == 2 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			return fmt.Errorf("Scan returned %v, want the callback's error", err)
		}
		if calls != 2 {
			return fmt.Errorf("callback called %d times, want 2", calls)
		}
		return nil
	})
}
