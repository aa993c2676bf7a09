package props

import "strconv"

// Layer ranks where a value came from. A higher layer beats a lower one
// whatever the order in which values were added; within a layer, the value
// added last wins (so -P files are added in command-line order).
type Layer int

// The layers, lowest first. This order is the one place gobench's precedence
// is defined; it is YCSB's, with the workload file below the -P files.
const (
	LayerDefault  Layer = iota // built-in defaults, source "default"
	LayerWorkload              // workload files (-w name or a shipped workload), in order
	LayerFile                  // -P files, in command-line order
	LayerOverride              // -p key=value, source "-p"
	LayerFlag                  // explicit flags, source the flag ("-threads")
	numLayers
)

// String returns the layer's short name: "default", "workload", "-P", "-p"
// or "flag".
func (l Layer) String() string {
	switch l {
	case LayerDefault:
		return "default"
	case LayerWorkload:
		return "workload"
	case LayerFile:
		return "-P"
	case LayerOverride:
		return "-p"
	case LayerFlag:
		return "flag"
	}
	return "Layer(" + strconv.Itoa(int(l)) + ")"
}

// Layers collects values per layer and merges them in precedence order. The
// zero Layers is empty and ready to use. It is not safe for concurrent use.
type Layers struct {
	vals [numLayers][]Value
}

// Add appends vals to layer. It panics on a layer outside the constants above
// (a programmer error).
func (l *Layers) Add(layer Layer, vals ...Value) {
	if layer < 0 || layer >= numLayers {
		panic("props: Layers.Add: invalid layer " + layer.String())
	}
	l.vals[layer] = append(l.vals[layer], vals...)
}

// Set returns a new Set holding, for each key, the value from the highest
// layer (the last added within it).
func (l *Layers) Set() *Set {
	s := &Set{}
	for _, vals := range l.vals {
		s.Add(vals...)
	}
	return s
}

// Origin returns the winning value of key and the layer that set it.
func (l *Layers) Origin(key string) (Value, Layer, bool) {
	for layer := numLayers - 1; layer >= 0; layer-- {
		vals := l.vals[layer]
		for i := len(vals) - 1; i >= 0; i-- {
			if vals[i].Key == key {
				return vals[i], layer, true
			}
		}
	}
	return Value{}, 0, false
}

// History returns every value given for key, lowest layer first and in
// order within a layer; the last one is the effective value. It shows which
// settings were overridden.
func (l *Layers) History(key string) []Value {
	var h []Value
	for _, vals := range l.vals {
		for _, v := range vals {
			if v.Key == key {
				h = append(h, v)
			}
		}
	}
	return h
}
