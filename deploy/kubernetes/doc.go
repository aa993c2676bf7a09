// Package kubernetes holds gobench's Kubernetes manifests (the YAML files
// beside this one: Indexed Jobs for N clients, the workload ConfigMap, the
// results volume, the merge Job) and a test that proves them: each file
// decoded strictly into the real API types (k8s.io/api; an unknown or
// misspelled field is an error), the Indexed Jobs' completions,
// parallelism and completion-index wiring checked against gobench.clients
// and gobench.client, the workload validated by gobench's own Prepare, and
// deploy/Dockerfile's build rebuilt to check its binary is static. It has
// no code besides the test; nothing imports it.
//
// It may import workload, props and the drivers (its test does), plus
// k8s.io/api and sigs.k8s.io/yaml.
package kubernetes
