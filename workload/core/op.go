package core

// Op is an operation of the core workload. Its String is YCSB's measurement
// name, and its value indexes per-operation arrays.
type Op uint8

// The core operations, in the order YCSB fills its operation chooser
// (READ, UPDATE, INSERT, SCAN, READMODIFYWRITE), then gobench's DELETE.
const (
	OpRead Op = iota
	OpUpdate
	OpInsert
	OpScan
	OpReadModifyWrite
	OpDelete
	numOps
)

// NumOps is the number of core operations.
const NumOps = int(numOps)

var opNames = [...]string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "DELETE"}

// String returns YCSB's name of the measurement (READ, READ-MODIFY-WRITE, ...).
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "Op(?)"
}
