package workloads

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
)

//go:embed workloada workloadb workloadc workloadd workloade workloadf workload_template dfsio_write dfsio_read kafka_produce kafka_consume
var files embed.FS

// Info describes a shipped workload.
type Info struct {
	Name    string
	Purpose string
}

var purposes = map[string]string{
	"workloada":         "update heavy: 50/50 reads and updates, zipfian (a session store)",
	"workloadb":         "read mostly: 95/5 reads and updates, zipfian (photo tagging)",
	"workloadc":         "read only: 100 % reads, zipfian (a profile cache)",
	"workloadd":         "read latest: 95 % reads, 5 % inserts, latest (status updates)",
	"workloade":         "short ranges: 95 % scans of 1-100 records, 5 % inserts (threaded conversations)",
	"workloadf":         "read-modify-write: 50 % reads, 50 % read-modify-writes, zipfian (a user database)",
	"workload_template": "every core property with its default, for copying",
	"dfsio_write":       "TestDFSIO -write: 4 files of 1 GB, one worker each (-db hdfs)",
	"dfsio_read":        "TestDFSIO -read of dfsio_write's files (-db hdfs)",
	"kafka_produce":     "Kafka producer perf: 1 000 000 records of 1 KB at full speed (-db kafka)",
	"kafka_consume":     "Kafka consumer perf: reads kafka_produce's records (-db kafka)",
}

// List returns the shipped workloads in name order.
func List() []Info {
	out := make([]Info, 0, len(purposes))
	for n, p := range purposes {
		out = append(out, Info{Name: n, Purpose: p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Open returns the named shipped workload file. The name may carry a
// "workloads/" prefix, as in YCSB command lines (-P workloads/workloada).
func Open(name string) (io.ReadCloser, error) {
	n := strings.TrimPrefix(name, "workloads/")
	if _, ok := purposes[n]; !ok {
		return nil, fmt.Errorf("unknown workload %q (shipped: %s)", name, strings.Join(Names(), ", "))
	}
	f, err := files.Open(n)
	if err != nil {
		return nil, err
	}
	return f.(io.ReadCloser), nil
}

// Names returns the names of the shipped workloads, sorted.
func Names() []string {
	var n []string
	for _, i := range List() {
		n = append(n, i.Name)
	}
	return n
}

// FS exposes the embedded files.
func FS() fs.FS { return files }
