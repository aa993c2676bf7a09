package kafka

import "github.com/gobench/gobench/drivers"

// Caps implements [drivers.Capable]: Conns produce and consume (the
// Kafka perf workloads).
func (Driver) Caps() drivers.Caps { return drivers.CapProduce | drivers.CapConsume }

// Caps implements [drivers.Capable].
func (*DB) Caps() drivers.Caps { return drivers.CapProduce | drivers.CapConsume }
