package workloads

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// The property lines of each file must be exactly Java YCSB 0.17.0's.
var want = map[string]string{
	"workloada": "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0.5 updateproportion=0.5 scanproportion=0 insertproportion=0 requestdistribution=zipfian",
	"workloadb": "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0.95 updateproportion=0.05 scanproportion=0 insertproportion=0 requestdistribution=zipfian",
	"workloadc": "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=1 updateproportion=0 scanproportion=0 insertproportion=0 requestdistribution=zipfian",
	"workloadd": "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0.95 updateproportion=0 scanproportion=0 insertproportion=0.05 requestdistribution=latest",
	"workloade": "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0 updateproportion=0 scanproportion=0.95 insertproportion=0.05 requestdistribution=zipfian maxscanlength=100 scanlengthdistribution=uniform",
	"workloadf": "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0.5 updateproportion=0 scanproportion=0 insertproportion=0 readmodifywriteproportion=0.5 requestdistribution=zipfian",
}

func propLines(t *testing.T, r io.Reader) string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, " ")
}

func TestShippedFilesMatchJava(t *testing.T) {
	for name, w := range want {
		f, err := Open(name)
		if err != nil {
			t.Fatal(err)
		}
		got := propLines(t, f)
		f.Close()
		if got != w {
			t.Errorf("%s properties:\n got %s\nwant %s", name, got, w)
		}
	}
}

func TestOpen(t *testing.T) {
	if f, err := Open("workloads/workloadc"); err != nil {
		t.Errorf("Open with workloads/ prefix: %v", err)
	} else {
		f.Close()
	}
	_, err := Open("workloadz")
	if err == nil || !strings.Contains(err.Error(), "workloada") {
		t.Errorf("Open(workloadz) error = %v, want one listing the shipped workloads", err)
	}
	if len(List()) != 11 {
		t.Errorf("List() has %d entries, want 11", len(List()))
	}
}
