package main

import (
	"context"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, errs := gobench(t, context.Background(), "run", "-db", "basic", "-w", "workloada",
		"-p", "operationcount=0", "-p", "maxexecutiontime=2", "-target", "2000", "-threads", "2",
		"-p", "exporter=json", "-p", "exportfile=r.json")
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, errs)
	}
	code, _, errs = gobench(t, context.Background(), "report", "r.json", "-o", "r.html")
	if code != exitOK {
		t.Fatalf("report: exit %d\n%s", code, errs)
	}
	b, err := os.ReadFile("r.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<title>gobench: r</title>", "Throughput over time", "Latency by percentile", "<td>READ</td>"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("r.html lacks %q", want)
		}
	}
	code, _, errs = gobench(t, context.Background(), "report", "-format", "png", "-o", "figs", "r.json")
	if code != exitOK {
		t.Fatalf("report -format png: exit %d\n%s", code, errs)
	}
	for _, name := range []string{"throughput", "latency", "spectrum"} {
		f, err := os.Open(filepath.Join("figs", name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s.png: %v", name, err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report"}, "give the result files"},
		{[]string{"report", "-format", "gif", "r.json"}, "png, svg"},
		{[]string{"report", "nosuch.json"}, "nosuch.json"},
		{[]string{"report", "-sweep", "r.json", "r.json"}, ""},
		{[]string{"merge"}, "give the result files"},
		{[]string{"merge", "r.html"}, "r.html"},
	} {
		code, _, errs := gobench(t, context.Background(), c.args...)
		if c.want == "" {
			if code != exitOK {
				t.Errorf("gobench %q: exit %d\n%s", c.args, code, errs)
			}
			continue
		}
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("gobench %q: exit %d, stderr %q; want exit 2 naming %q", c.args, code, errs, c.want)
		}
	}
}

func TestParseInterspersed(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	o := fs.String("o", "", "")
	pos, err := parseInterspersed(fs, []string{"a.json", "-o", "m.json", "b.json", "--", "-c.json"})
	if err != nil || *o != "m.json" || !reflect.DeepEqual(pos, []string{"a.json", "b.json", "-c.json"}) {
		t.Errorf("parseInterspersed = %q, -o %q, %v", pos, *o, err)
	}
}
