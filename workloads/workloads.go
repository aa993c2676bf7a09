package workloads

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

//go:embed workloada workloadb workloadc workloadd workloade workloadf workload_template tsworkload_template tsworkloada dfsio_write dfsio_read kafka_produce kafka_consume
var files embed.FS

// Info describes a shipped workload.
type Info struct {
	Name    string
	Purpose string
	// Kind is the file's workload property as written (empty for none).
	Kind string
	// DB is the driver the preset is meant for ("" = any).
	DB string
}

// shipped lists the files, in the order listings show them.
var shipped = []Info{
	{Name: "workloada", Purpose: "update heavy: 50/50 reads and updates, zipfian (a session store)"},
	{Name: "workloadb", Purpose: "read mostly: 95/5 reads and updates, zipfian (photo tagging)"},
	{Name: "workloadc", Purpose: "read only: 100 % reads, zipfian (a profile cache)"},
	{Name: "workloadd", Purpose: "read latest: 95 % reads, 5 % inserts, latest (status updates)"},
	{Name: "workloade", Purpose: "short ranges: 95 % scans of 1-100 records, 5 % inserts (threaded conversations)"},
	{Name: "workloadf", Purpose: "read-modify-write: 50 % reads, 50 % read-modify-writes, zipfian (a user database)"},
	{Name: "workload_template", Purpose: "every core property with its default, for copying"},
	{Name: "tsworkload_template", Purpose: "YCSB's TimeSeriesWorkload: every property with its default, for copying"},
	{Name: "tsworkloada", Purpose: "time series: 64 metrics x 16 tag combinations, 90 % inserts, 10 % hour-long reads"},
	{Name: "dfsio_write", Purpose: "TestDFSIO -write: 4 files of 1 GB, one worker each", DB: "hdfs"},
	{Name: "dfsio_read", Purpose: "TestDFSIO -read of dfsio_write's files", DB: "hdfs"},
	{Name: "kafka_produce", Purpose: "Kafka producer perf: 1 000 000 records of 1 KB at full speed", DB: "kafka"},
	{Name: "kafka_consume", Purpose: "Kafka consumer perf: reads kafka_produce's records", DB: "kafka"},
}

// List returns the shipped workloads, YCSB's first, each with the
// workload kind its file sets.
func List() []Info {
	out := append([]Info(nil), shipped...)
	for i := range out {
		out[i].Kind = kindOf(out[i].Name)
	}
	return out
}

// kindOf reads the workload property of a shipped file (the files are
// plain key=value lines).
func kindOf(name string) string {
	b, err := fs.ReadFile(files, name)
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "workload="); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func known(name string) bool {
	for _, i := range shipped {
		if i.Name == name {
			return true
		}
	}
	return false
}

// Open returns the named shipped workload file. The name may carry a
// "workloads/" prefix, as in YCSB command lines (-P workloads/workloada).
func Open(name string) (io.ReadCloser, error) {
	n := strings.TrimPrefix(name, "workloads/")
	if !known(n) {
		return nil, fmt.Errorf("unknown workload %q (shipped: %s)", name, strings.Join(Names(), ", "))
	}
	f, err := files.Open(n)
	if err != nil {
		return nil, err
	}
	return f.(io.ReadCloser), nil
}

// Names returns the names of the shipped workloads, in listing order.
func Names() []string {
	var n []string
	for _, i := range List() {
		n = append(n, i.Name)
	}
	return n
}

// FS exposes the embedded files.
func FS() fs.FS { return files }
