// Package workloads embeds the workload files gobench ships: YCSB's core
// workloads A to F and its template, property-for-property identical to the
// files Java YCSB 0.17.0 ships, so `-w workloada` means the same load in both
// tools.
//
// It imports only the standard library.
//
//	f, err := workloads.Open("workloada")
//	if err != nil { ... }
//	defer f.Close()
//	vals, err := props.Parse(f, "workloada")
package workloads
