package engine

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// ticks reads the time-stamp counter (RDTSC).
func ticks() uint64

// cpuid runs CPUID for leaf (subleaf 0).
func cpuid(leaf uint32) (eax, ebx, ecx, edx uint32)

// clocksourceFile names the kernel's clock source.
const clocksourceFile = "/sys/devices/system/clocksource/clocksource0/current_clocksource"

// tscSupported reports why the counter cannot serve as the clock: unless
// the CPU declares it invariant (CPUID 0x80000007, EDX bit 8: one rate in
// every P-state, running in every C-state) and the kernel keeps its own
// time with it (which it does only once it found the counters of every
// CPU in step), the counter is not trusted.
func tscSupported() error {
	if max, _, _, _ := cpuid(0x80000000); max < 0x80000007 {
		return errors.New("the CPU does not say whether its time-stamp counter is invariant")
	}
	if _, _, _, edx := cpuid(0x80000007); edx&(1<<8) == 0 {
		return errors.New("the CPU's time-stamp counter is not invariant")
	}
	b, err := os.ReadFile(clocksourceFile)
	if err != nil {
		return fmt.Errorf("the kernel's clock source is unknown: %w", err)
	}
	if cs := strings.TrimSpace(string(b)); cs != "tsc" {
		return fmt.Errorf("the kernel keeps time with %q, not the time-stamp counter", cs)
	}
	return nil
}
