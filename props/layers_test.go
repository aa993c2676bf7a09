package props

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestLayers(t *testing.T) {
	var l Layers
	// Added out of precedence order on purpose: the layer decides, not the call order.
	l.Add(LayerFlag, Value{Key: "threadcount", Value: "16", Source: "-threads"})
	l.Add(LayerOverride, Value{Key: "threadcount", Value: "4", Source: "-p"}, Value{Key: "target", Value: "100", Source: "-p"})
	l.Add(LayerFile,
		Value{Key: "recordcount", Value: "10", Source: "a.properties", Line: 1},
		Value{Key: "target", Value: "5", Source: "a.properties", Line: 2})
	l.Add(LayerFile, Value{Key: "recordcount", Value: "20", Source: "b.properties", Line: 3})
	l.Add(LayerWorkload,
		Value{Key: "recordcount", Value: "1000", Source: "workloada", Line: 17},
		Value{Key: "readproportion", Value: "0.5", Source: "workloada", Line: 20})
	l.Add(LayerDefault, FromMap(map[string]string{"threadcount": "1", "recordcount": "0", "table": "usertable"}, "default")...)

	want := []struct {
		key, val, where string
		layer           Layer
	}{
		{"threadcount", "16", "-threads", LayerFlag},
		{"target", "100", "-p", LayerOverride},
		{"recordcount", "20", "b.properties:3", LayerFile}, // later -P file wins
		{"readproportion", "0.5", "workloada:20", LayerWorkload},
		{"table", "usertable", "default", LayerDefault},
	}
	s := l.Set()
	if s.Len() != len(want) {
		t.Errorf("Set has %d keys, want %d", s.Len(), len(want))
	}
	for _, w := range want {
		v, ok := s.Get(w.key)
		if !ok || v.Value != w.val || v.Where() != w.where {
			t.Errorf("Set()[%s] = %+v, want %s from %s", w.key, v, w.val, w.where)
		}
		ov, layer, ok := l.Origin(w.key)
		if !ok || ov != v || layer != w.layer {
			t.Errorf("Origin(%s) = %+v, %v, %v; want %s, %v", w.key, ov, layer, ok, w.where, w.layer)
		}
	}
	if _, _, ok := l.Origin("absent"); ok {
		t.Error("Origin(absent) found something")
	}
	var hist []string
	for _, v := range l.History("recordcount") {
		hist = append(hist, v.Value+"@"+v.Where())
	}
	if got := strings.Join(hist, " "); got != "0@default 1000@workloada:17 10@a.properties:1 20@b.properties:3" {
		t.Errorf("History(recordcount) = %s", got)
	}
	names := []string{LayerDefault.String(), LayerWorkload.String(), LayerFile.String(), LayerOverride.String(), LayerFlag.String(), Layer(9).String()}
	if got := strings.Join(names, ","); got != "default,workload,-P,-p,flag,Layer(9)" {
		t.Errorf("Layer names = %s", got)
	}
}

func TestDump(t *testing.T) {
	var s Set
	s.Add(
		Value{Key: "threadcount", Value: "8", Source: "-threads"},
		Value{Key: "recordcount", Value: "1000", Source: "workloads/workloada", Line: 17},
		Value{Key: "label", Value: " x ", Source: "-p"},
		Value{Key: "a.very.long.property.name.that.is.longer", Value: "than the column", Source: "default"},
	)
	var b bytes.Buffer
	if err := s.Dump(&b); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"a.very.long.property.name.that.is.longer=than the column  # default\n" +
		"label=\\ x\\        # -p\n" +
		"recordcount=1000  # workloads/workloada:17\n" +
		"threadcount=8     # -threads\n"
	if b.String() != want {
		t.Errorf("Dump:\n%s\nwant:\n%s", b.String(), want)
	}
	boom := errors.New("boom")
	if err := s.Dump(failWriter{boom}); !errors.Is(err, boom) {
		t.Errorf("Dump to a failing writer = %v, want boom", err)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestLayersAddInvalidPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Add(Layer(42)) did not panic")
		}
	}()
	var l Layers
	l.Add(Layer(42))
}
