package main

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gobench/gobench/yarn"
)

// Bad flags and bad inner commands are refused with exit 2 before
// anything is submitted: -rm points at a closed port, so reaching the
// network would fail differently (exit 1).
func TestYarnRefusesBadInputBeforeSubmitting(t *testing.T) {
	dir := t.TempDir()
	notELF := filepath.Join(dir, "notelf")
	os.WriteFile(notELF, []byte("#!/bin/sh\n"), 0o755)
	rm := []string{"-rm", "http://127.0.0.1:1"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "0", "--", "run", "-db", "basic"}, "-n 0: the number of clients, at least 1"},
		{[]string{"-n", "2"}, "give the command after --"},
		{[]string{"-n", "2", "run"}, `unexpected "run" before --`},
		{[]string{"-n", "2", "--", "dfsio", "-write"}, `"dfsio" after --: gobench yarn runs load or run`},
		{[]string{"-n", "2", "-memory", "lots", "--", "run"}, `-memory "lots": a size such as 1g`},
		{[]string{"-n", "2", "--", "run", "-db", "basic", "-p", "exportfile=x.json"}, "gobench yarn sets exportfile itself"},
		{[]string{"-n", "2", "--", "run", "-db", "basic", "-p", "gobench.client=1"}, "gobench yarn sets gobench.client itself"},
		{[]string{"-n", "2", "--", "run", "-db", "basic", "-p", "recordcount=many"}, "recordcount"},
		{[]string{"-n", "2", "--", "run", "-db", "basic", "-p", "nosuchkey=1"}, "nosuchkey"},
		{[]string{"-n", "2", "--", "run", "-db", "basic", "-P", filepath.Join(dir, "missing.properties")}, "missing.properties"},
		{[]string{"-n", "2", "-binary", notELF, "--", "run", "-db", "basic"}, "not a Linux executable"},
		{[]string{"-n", "2", "-user", "a b", "-binary", "/bin/ls", "--", "run", "-db", "basic"}, `-user "a b"`},
	} {
		code, _, errs := gobench(t, context.Background(), append(append([]string{"yarn"}, rm...), c.args...)...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("yarn %v: exit %d, want 2 with %q:\n%s", c.args, code, c.want, errs)
		}
	}
}

// A good command gets past the checks and fails at the ResourceManager
// (exit 1, naming it).
func TestYarnNamesAnUnreachableResourceManager(t *testing.T) {
	code, _, errs := gobench(t, context.Background(), "yarn", "-rm", "http://127.0.0.1:1", "-n", "2", "-binary", "/bin/ls", "--", "run", "-db", "basic")
	if code != exitFailed || !strings.Contains(errs, "read the ResourceManager's configuration (-rm http://127.0.0.1:1)") {
		t.Errorf("exit %d, want 1 naming the ResourceManager:\n%s", code, errs)
	}
}

func TestYarnStagesPropertyFiles(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.properties"), filepath.Join(dir, "my work,load"), filepath.Join(dir, "c")
	for _, f := range []string{a, b, c} {
		os.WriteFile(f, []byte("recordcount=10\n"), 0o644)
	}
	cmd, files, err := stagePropertyFiles([]string{"run", "-P", a, "-w", "workloada", "--property-file=" + b, "-P" + c, "-p", "x=-P"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"run", "-P", "p0-a.properties", "-w", "workloada", "--property-file=p1-my_work_load", "-Pp2-c", "-p", "x=-P"}
	if !reflect.DeepEqual(cmd, want) || !reflect.DeepEqual(files, map[string]string{"p0-a.properties": a, "p1-my_work_load": b, "p2-c": c}) {
		t.Errorf("staged %q %v, want %q", cmd, files, want)
	}
}

func TestParseMiB(t *testing.T) {
	for in, want := range map[string]int64{"1g": 1024, "512m": 512, "2048": 2048, "2G": 2048} {
		if got, err := parseMiB(in); err != nil || got != want {
			t.Errorf("parseMiB(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "1.5g", "-1m", "1t"} {
		if _, err := parseMiB(in); err == nil {
			t.Errorf("parseMiB(%q): no error", in)
		}
	}
}

// What the report says about each client, from what it left on HDFS.
func TestYarnClientProblems(t *testing.T) {
	st := &yarnStart{Container: "container_1_0001_01_000003", Host: "node7"}
	for _, c := range []struct {
		c    yarnClient
		want string
	}{
		{yarnClient{start: st, exit: &yarnExit{}, result: []byte("{}")}, ""},
		{yarnClient{}, "never started: no container ran it (the cluster had no room, or its container failed before gobench ran; see the application master's log)"},
		{yarnClient{start: st}, "killed or died while running (container container_1_0001_01_000003 on node7): no result file"},
		{yarnClient{start: st, exit: &yarnExit{Code: 2, Error: "bad"}}, "exited 2 without a result (container container_1_0001_01_000003 on node7): bad"},
		{yarnClient{start: st, exit: &yarnExit{Code: 1, Error: "3 ops failed"}, result: []byte("{}")}, "exited 1 (container container_1_0001_01_000003 on node7): 3 ops failed (its result is merged)"},
	} {
		if got := c.c.problem(); got != c.want {
			t.Errorf("problem %q, want %q", got, c.want)
		}
	}
}

// A dynamically linked binary names its loader (the static build is
// checked in deploy/, where the Dockerfile's build is rebuilt).
func TestELFInterpreter(t *testing.T) {
	if in, err := elfInterpreter("/bin/ls"); err != nil || !strings.Contains(in, "ld-linux") {
		t.Errorf("/bin/ls: interpreter %q (%v), want the dynamic loader", in, err)
	}
	if _, err := elfInterpreter("/etc/hostname"); err == nil {
		t.Error("a text file: no error")
	}
}

// The application master's JVM options get through DistributedShell's
// argument check and into its command, right after java.
func TestYarnAMJavaOpts(t *testing.T) {
	opts := yarnAMJavaOpts(512)
	ds := &yarn.DistributedShell{Name: "gobench run", Queue: "default", AMMemoryMB: 512, AMVCores: 1, AMJavaOpts: opts,
		HomeDir: "/user/gobench", StagingName: yarnStagingName, Containers: 2, ContainerMemoryMB: 512, ContainerVCores: 1}
	s, err := ds.Submission("application_1_0001")
	if err != nil {
		t.Fatal(err)
	}
	want := "{{JAVA_HOME}}/bin/java -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 " + yarn.DistributedShellMain + " "
	if !strings.HasPrefix(s.AM.Commands.Command, want) {
		t.Errorf("application master command %q, want it to start with %q", s.AM.Commands.Command, want)
	}
}
