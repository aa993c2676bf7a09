package engine

// Phase says whether a run loads records or runs transactions (YCSB's
// dotransactions property: false is -load, true is -t).
type Phase uint8

const (
	// Load inserts the records of the key space: YCSB's -load.
	Load Phase = iota
	// Transactions runs the operation mix: YCSB's -t (gobench run).
	Transactions
)

func (p Phase) String() string {
	if p == Load {
		return "load"
	}
	return "run"
}
