package drivers

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

var (
	regMu    sync.RWMutex
	registry = map[string]Driver{}
	aliases  = map[string]string{}
)

// Register makes a driver available by name. It panics if d is nil, the name
// is empty, or the name is taken: these are programming errors at init.
func Register(name string, d Driver) {
	regMu.Lock()
	defer regMu.Unlock()
	if d == nil || name == "" {
		panic("drivers: Register with empty name or nil driver")
	}
	if _, dup := registry[name]; dup {
		panic("drivers: Register called twice for " + name)
	}
	registry[name] = d
}

// Alias makes alias another name for the registered driver name (for
// example YCSB's binding names "hbase20" or "site.ycsb.BasicDB").
func Alias(alias, name string) {
	regMu.Lock()
	defer regMu.Unlock()
	aliases[alias] = name
}

// Names returns the registered driver names, sorted.
func Names() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	n := make([]string, 0, len(registry))
	for k := range registry {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Canonical returns the registered name for name or one of its aliases.
func Canonical(name string) (string, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	if _, ok := registry[name]; ok {
		return name, true
	}
	if n, ok := aliases[name]; ok {
		return n, true
	}
	return "", false
}

// Lookup finds a driver by name or alias. The error lists the known drivers.
func Lookup(name string) (Driver, error) {
	c, ok := Canonical(name)
	if !ok {
		return nil, fmt.Errorf("unknown db %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	regMu.RLock()
	defer regMu.RUnlock()
	return registry[c], nil
}
