package workloads

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// The property lines of each file must be exactly Java YCSB 0.17.0's.
var want = map[string]string{
	"workloada":           "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0.5 updateproportion=0.5 scanproportion=0 insertproportion=0 requestdistribution=zipfian",
	"workloadb":           "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0.95 updateproportion=0.05 scanproportion=0 insertproportion=0 requestdistribution=zipfian",
	"workloadc":           "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=1 updateproportion=0 scanproportion=0 insertproportion=0 requestdistribution=zipfian",
	"workloadd":           "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0.95 updateproportion=0 scanproportion=0 insertproportion=0.05 requestdistribution=latest",
	"workloade":           "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0 updateproportion=0 scanproportion=0.95 insertproportion=0.05 requestdistribution=zipfian maxscanlength=100 scanlengthdistribution=uniform",
	"tsworkloada":         "workload=site.ycsb.workloads.TimeSeriesWorkload recordcount=1474560 operationcount=2949120 fieldlength=8 fieldcount=64 tagcount=4 tagcardinality=1,2,4,2 sparsity=0.0 delayedSeries=0.0 delayedIntervals=0 timestampunits=SECONDS timestampinterval=60 querytimespan=3600 readproportion=0.10 updateproportion=0.00 insertproportion=0.90",
	"tsworkload_template": "workload=site.ycsb.workloads.TimeSeriesWorkload recordcount=1000000 operationcount=3000000 timestampunits=SECONDS timestampinterval=60 fieldcount=16 fieldlength=8 fieldlengthdistribution=constant tagcount=4 tagcardinality=1,2,4,8 tagkeylength=8 tagvaluelength=8 tagpairdelimiter== deletedelimiter=: randomwritetimestamporder=false randomtimeseriesorder=false valuetype=floats sparsity=0.00 delayedSeries=0.10 delayedIntervals=5 querytimespan=0 queryrandomtimespan=false querytimespandelimiter=, groupbykey=YCSBGB downsamplingkey=YCSBDS readproportion=0.10 updateproportion=0.00 insertproportion=0.90 requestdistribution=zipfian table=usertable dataintegrity=false measurementtype=histogram histogram.buckets=1000 timeseries.granularity=1000",
	"workloadf":           "recordcount=1000 operationcount=1000 workload=site.ycsb.workloads.CoreWorkload readallfields=true readproportion=0.5 updateproportion=0 scanproportion=0 insertproportion=0 readmodifywriteproportion=0.5 requestdistribution=zipfian",
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
	if len(List()) != 13 {
		t.Errorf("List() has %d entries, want 13", len(List()))
	}
}
