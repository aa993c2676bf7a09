package hdfs

import "github.com/gobench/gobench/drivers"

// Caps implements [drivers.Capable]: Conns are file systems (dfsio).
func (Driver) Caps() drivers.Caps { return drivers.CapFiles }

// Caps implements [drivers.Capable].
func (*DB) Caps() drivers.Caps { return drivers.CapFiles }
