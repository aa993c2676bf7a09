package drivers

import (
	"context"
	"strings"
	"testing"

	"github.com/gobench/gobench/props"
)

type fakeDriver struct{ name string }

func (fakeDriver) Keys() []props.Key { return nil }
func (fakeDriver) Configure(*props.Decoder, Schema) (DB, error) {
	return nil, nil
}

var _ DB = (*fakeDB)(nil)

type fakeDB struct{}

func (*fakeDB) Open(context.Context) (Conn, error) { return nil, nil }
func (*fakeDB) Close() error                       { return nil }

func TestRegistry(t *testing.T) {
	a, b := fakeDriver{"a"}, fakeDriver{"b"}
	Register("regtest-b", b)
	Register("regtest-a", a)
	Alias("regtest-alias", "regtest-a")

	names := Names()
	ia, ib := indexOf(names, "regtest-a"), indexOf(names, "regtest-b")
	if ia < 0 || ib < 0 || ia > ib {
		t.Errorf("Names() = %v, want regtest-a before regtest-b", names)
	}
	for name, want := range map[string]string{"regtest-a": "a", "regtest-alias": "a", "regtest-b": "b"} {
		d, err := Lookup(name)
		if err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
			continue
		}
		if d.(fakeDriver).name != want {
			t.Errorf("Lookup(%q) = driver %q, want %q", name, d.(fakeDriver).name, want)
		}
	}
	if c, ok := Canonical("regtest-alias"); !ok || c != "regtest-a" {
		t.Errorf("Canonical(regtest-alias) = %q, %v; want regtest-a, true", c, ok)
	}
	if _, ok := Canonical("regtest-none"); ok {
		t.Error("Canonical(regtest-none) found a driver")
	}
	_, err := Lookup("regtest-none")
	if err == nil || !strings.Contains(err.Error(), `"regtest-none"`) || !strings.Contains(err.Error(), "regtest-a") {
		t.Errorf("Lookup(regtest-none) = %v, want an error naming it and listing the known drivers", err)
	}
}

func TestRegisterPanics(t *testing.T) {
	Register("regtest-dup", fakeDriver{})
	for name, f := range map[string]func(){
		"duplicate":  func() { Register("regtest-dup", fakeDriver{}) },
		"empty name": func() { Register("", fakeDriver{}) },
		"nil driver": func() { Register("regtest-nil", nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register with %s did not panic", name)
				}
			}()
			f()
		}()
	}
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}
