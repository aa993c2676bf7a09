package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// summaryValue returns the value of a TestDFSIO summary line ("label: value").
func summaryValue(t *testing.T, text, label string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)` + regexp.QuoteMeta(label) + `: (.*)$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %q line in:\n%s", label, text)
	}
	return m[1]
}

// The local file system path: write, read, random read, append, truncate
// and clean with TestDFSIO's totals, the result file appended to.
func TestDFSIOLocal(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ctx := context.Background()
	fs := "file://" + filepath.Join(dir, "disk")
	for _, c := range []struct {
		args  []string
		name  string
		mb    string
		check func(t *testing.T, stderr string)
	}{
		{[]string{"-write", "-nrFiles", "3", "-size", "2MB", "-bufferSize", "65536"}, "write", "6", nil},
		{[]string{"-read", "-nrFiles", "3", "-fileSize", "2"}, "read", "6", nil},
		{[]string{"-read", "-random", "-nrFiles", "3", "-size", "1MB", "-bufferSize", "65536"}, "random read", "", func(t *testing.T, stderr string) {
			// 16 reads of 64 KB per file, some short near the end of the file,
			// then more until 1 MB: at least 3 MB, less than 3 MB + 3 buffers.
			mb, _ := strconv.ParseFloat(summaryValue(t, stderr, "Total MBytes processed"), 64)
			if mb < 3 || mb >= 3+3*65536.0/(1<<20) {
				t.Errorf("random read: %v MB, want 3 <= MB < 3.19", mb)
			}
		}},
		{[]string{"-read", "-skip", "-skipSize", "0", "-nrFiles", "3", "-size", "1024KB", "-bufferSize", "262144"}, "skip read", "3", nil},
		{[]string{"-append", "-nrFiles", "3", "-size", "1MB", "-threads", "1"}, "append", "3", func(t *testing.T, stderr string) {
			if !strings.Contains(stderr, "with 1 workers") {
				t.Errorf("-threads 1 not honoured:\n%s", stderr)
			}
			st, err := os.Stat(filepath.Join(dir, "disk/benchmarks/TestDFSIO/io_data/test_io_2"))
			if err != nil || st.Size() != 3<<20 {
				t.Errorf("appended file: %v, %d bytes; want 3 MB", err, st.Size())
			}
		}},
		{[]string{"-truncate", "-nrFiles", "3", "-size", "512KB"}, "truncate", "7.5", nil},
	} {
		code, stdout, stderr := gobench(t, ctx, append([]string{"dfsio", "-fs", fs}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", c.args, code, stderr)
		}
		if got := summaryValue(t, stderr, "----- TestDFSIO ----- "); got != c.name {
			t.Errorf("%v: test %q, want %q", c.args, got, c.name)
		}
		if got := summaryValue(t, stderr, "Number of files"); got != "3" {
			t.Errorf("%v: files %q", c.args, got)
		}
		if got := summaryValue(t, stderr, "Total MBytes processed"); c.mb != "" && got != c.mb {
			t.Errorf("%v: MBytes %q, want %q", c.args, got, c.mb)
		}
		if !strings.Contains(stdout, "[FILE], Operations, 3") {
			t.Errorf("%v: report lacks the per-file series:\n%s", c.args, stdout)
		}
		if c.check != nil {
			c.check(t, stderr)
		}
	}
	res, err := os.ReadFile("TestDFSIO_results.log")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(res), "----- TestDFSIO ----- : "); n != 6 {
		t.Errorf("result file holds %d blocks, want 6:\n%s", n, res)
	}
	if !strings.HasSuffix(string(res), "     Test exec time sec: "+summaryValue(t, string(res[len(res)-60:]), "Test exec time sec")+"\n\n") {
		t.Errorf("each block ends with an empty line:\n%q", res[len(res)-80:])
	}
	if ctl, err := os.ReadFile(filepath.Join(dir, "disk/benchmarks/TestDFSIO/io_control/in_file_test_io_2")); err != nil || !strings.HasPrefix(string(ctl), "SEQ\x06") {
		t.Errorf("control file: %v %q", err, ctl)
	}
	// Throughput follows TestDFSIO's formula from the part-00000 sums.
	part, _ := os.ReadFile(filepath.Join(dir, "disk/benchmarks/TestDFSIO/io_truncate/part-00000"))
	if !strings.Contains(string(part), "l:tasks\t3\n") || !strings.Contains(string(part), "l:size\t7864320\n") {
		t.Errorf("part-00000:\n%s", part)
	}
	code, _, stderr := gobench(t, ctx, "dfsio", "-fs", fs, "-clean")
	if code != 0 {
		t.Fatalf("-clean: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "disk/benchmarks/TestDFSIO")); !os.IsNotExist(err) {
		t.Errorf("-clean left the base dir: %v", err)
	}
	// Reading what is not there: exit 1, files counted as failed.
	code, _, stderr = gobench(t, ctx, "dfsio", "-fs", fs, "-read", "-nrFiles", "2")
	if code != 1 || !strings.Contains(stderr, "Failed files: 2 of 2") {
		t.Errorf("read of missing files: exit %d\n%s", code, stderr)
	}
}

func TestDFSIOThroughputFormula(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, stderr := gobench(t, context.Background(), "dfsio", "-fs", "file://"+dir, "-write", "-nrFiles", "2", "-size", "4MB", "-resFile", "r.log", "--compat=gen-a")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	part, _ := os.ReadFile(filepath.Join(dir, "benchmarks/TestDFSIO/io_write/part-00000"))
	m := regexp.MustCompile(`l:time\t(\d+)`).FindStringSubmatch(string(part))
	if m == nil {
		t.Fatalf("part-00000:\n%s", part)
	}
	ms, _ := strconv.ParseFloat(m[1], 64)
	got, _ := strconv.ParseFloat(summaryValue(t, stderr, "Throughput mb/sec"), 64)
	if want := 8 / (ms / 1000); ms > 0 && (got-want)/want > 1e-6 || (want-got)/want > 1e-6 {
		t.Errorf("Throughput %v, want 8 MB / %v ms = %v", got, ms, want)
	}
	if got := summaryValue(t, stderr, "Total MBytes processed"); got != "8.0" {
		t.Errorf("2.x format MBytes %q, want 8.0", got)
	}
}

func TestDFSIOUsageErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "missing arguments"},
		{[]string{"-random"}, "only allowed right after -read"},
		{[]string{"-write", "-skip"}, "only allowed right after -read"},
		{[]string{"-write", "-compression", "org.apache.hadoop.io.compress.GzipCodec"}, "not supported"},
		{[]string{"-write", "-bogus"}, "illegal argument: -bogus"},
		{[]string{"-write", "-size", "12XB"}, "dfsio.size"},
		{[]string{"-write", "-nrFiles", "0"}, "dfsio.nrfiles"},
		{[]string{"-write", "-fs", "s3a://bucket"}, "allowed: hdfs://host:port or file:///dir"},
		{[]string{"-write", "-D", "test.io.typo=1", "-fs", "file:///tmp"}, "test.io.typo"},
		{[]string{"-nrFiles", "2"}, "no test given"},
		{[]string{"-write", "-seq"}, "sequential"},
		{[]string{"-write", "--compat=gen-z"}, "-format \"gen-z\""},
	} {
		code, _, stderr := gobench(t, context.Background(), append([]string{"dfsio"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("dfsio %v: exit %d, want 2 with %q in:\n%s", c.args, code, c.want, stderr)
		}
	}
}

func TestParseDFSIOMapsHadoopSettings(t *testing.T) {
	a, err := parseDFSIO([]string{"-Ddfs.replication=2", "-D", "dfs.blocksize=16m", "-D", "mapreduce.local.map.tasks.maximum=3",
		"-D", "fs.defaultFS=hdfs://nn:8020", "-D", "mapreduce.job.queuename=q", "-READ", "-Skip", "-skipSize", "2", "-NRFILES", "7"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"hdfs.replication": "2", "hdfs.blocksize": "16m", "threadcount": "3",
		"dfsio.nrfiles": "7", "test.io.skip.size": "2097152", "dfsio.test": "skip read"}
	for k, v := range want {
		if got, ok := a.set.Get(k); !ok || got.Value != v {
			t.Errorf("%s = %q, want %q", k, got.Value, v)
		}
	}
	if a.fs != "hdfs://nn:8020" || len(a.warns) != 1 || !strings.Contains(a.warns[0], "mapreduce.job.queuename") {
		t.Errorf("fs %q, warnings %q", a.fs, a.warns)
	}
}
