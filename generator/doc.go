// Package generator holds the number generators of YCSB's CoreWorkload,
// ported from Java YCSB with the same algorithms and constants, and the key
// builder that turns a key number into the key sent to a database.
//
// Generators: [Counter], [AcknowledgedCounter], [Uniform], [Zipfian],
// [ScrambledZipfian], [SkewedLatest], [Hotspot], [Exponential], [Sequential],
// [Discrete], [Histogram] and [Constant]. Keys: [FNV64] and [AppendKey], which
// produce byte-identical keys to Java YCSB's buildKeyName. [Zeta] gives the
// zipfian generators' ζ(n, θ) in O(1), so set-up does not grow with the key
// space (Java sums n terms).
//
// Randomness is never global. Each worker owns a *rand.Rand from [NewRand]
// (PCG seeded from the run seed and the worker id, so runs are reproducible)
// and passes it to every Next call. Generators shared by all workers are
// either immutable after construction or use sync/atomic; every type's doc
// says whether it is safe for concurrent use. Next allocates nothing.
//
// This package is a leaf: it imports only the standard library.
//
//	r := generator.NewRand(42, uint64(workerID))
//	keys, err := generator.NewScrambledZipfian(0, 999)
//	if err != nil { ... }
//	var buf []byte
//	buf = generator.AppendKey(buf[:0], keys.Next(r), true, 1) // "user…"
package generator
