package main

import (
	"context"
	"debug/elf"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/yarn"
)

// gobench yarn: N gobench clients as one YARN application.
//
// How: the ResourceManager's REST API submits Hadoop's DistributedShell
// application master (package yarn says why that one), which starts N
// containers. gobench stages on HDFS what they need (this binary, the -P
// files, a job file) as DistributedShell's localized files; each container
// runs `./gobench yarn -container gobench-yarn.json` (yarn_container.go),
// takes its client number from YARN_SHELL_ID, waits until all N have
// started, runs the load or run as client K of N and puts its result
// document on HDFS. This side follows the application with a live line,
// then reads the result files back and prints their merge exactly as
// gobench merge does, naming the clients that were killed or failed.

const yarnUsage = `gobench yarn -n N [flags] -- load|run [their flags: -w/-P/-p/-threads/-target/-db/-s ...]`

const yarnAbout = `Runs N gobench clients as one YARN application and merges their results.

Why DistributedShell through the REST API: an application master of gobench's own would have to speak
Hadoop RPC with token (SASL DIGEST-MD5) authentication to the ResourceManager and NodeManagers; Hadoop's
DistributedShell already runs one command in N containers and numbers them, and is on every Hadoop
cluster, so gobench itself needs only HTTP (the ResourceManager) and HDFS.

The ResourceManager's REST API submits Hadoop's DistributedShell application master (in every Hadoop
distribution, on the default yarn.application.classpath; -am-jar ships one), which runs one container per
client. gobench stages this binary, the -P files and the job on HDFS; each container gets its client number
from DistributedShell (YARN_SHELL_ID), waits until all N clients have started, runs the command with
gobench.clients=N gobench.client=K (load: disjoint key ranges; run: the full mix, operationcount per client)
and writes its result document to HDFS (-dir/<application id>/client-K.json). A live line follows the
application; at the end the result files are merged and printed exactly as gobench merge prints them, and
clients without a result (killed, failed, never started) are named by number. Ctrl-C asks the clients to
stop (they still write what ran) and kills the application after -grace; a second Ctrl-C kills it at once.
Paths in other properties (fieldlengthhistogram, -cp) are read on the nodes. Simple (non-Kerberos)
authentication only. Exit status: 0 when every client ran, 1 when one did not (the merge of the others is
still printed), 2 for bad flags or configuration.`

type yarnOptions struct {
	n                      int
	rm, fs, namenode, user string
	queue, name, dir       string
	memory, amMemory       string
	vcores                 int
	binary, amJar, out     string
	results                string
	startTimeout, grace    time.Duration
	poll                   time.Duration
}

func yarnCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("yarn", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o yarnOptions
	fs.IntVar(&o.n, "n", 0, "number of clients (containers), at least 1")
	fs.StringVar(&o.rm, "rm", "http://127.0.0.1:8088", "the ResourceManager's web address (REST API)")
	fs.StringVar(&o.fs, "fs", "", "the file system for staging and results, as the NodeManagers name it (default: the ResourceManager's fs.defaultFS)")
	fs.StringVar(&o.namenode, "namenode", "", "host:port[,host:port] of the NameNode(s) for gobench itself (default: from -fs)")
	fs.StringVar(&o.user, "user", "", "the application's and HDFS user (default $HADOOP_USER_NAME, else the login name)")
	fs.StringVar(&o.queue, "queue", "default", "the YARN queue")
	fs.StringVar(&o.name, "name", "", "the application's name (default: gobench COMMAND)")
	fs.StringVar(&o.memory, "memory", "1g", "memory of each client's container (1g, 512m, or MiB)")
	fs.IntVar(&o.vcores, "vcores", 1, "virtual cores of each client's container")
	fs.StringVar(&o.amMemory, "am-memory", "512m", "memory of the application master's container")
	fs.StringVar(&o.amJar, "am-jar", "", "a hadoop-yarn-applications-distributedshell jar to ship, for clusters whose classpath lacks it")
	fs.StringVar(&o.binary, "binary", "", "the gobench binary the containers run: a Linux executable, best static (CGO_ENABLED=0) (default: this one)")
	fs.StringVar(&o.dir, "dir", "", "the HDFS directory for results: DIR/<application id>/ (default /user/USER/gobench-yarn)")
	fs.StringVar(&o.out, "o", "", "write the merged result document (JSON) to this file")
	fs.StringVar(&o.results, "results", "", "also copy the clients' result files into this local directory")
	fs.DurationVar(&o.startTimeout, "start-timeout", 5*time.Minute, "how long the clients wait for each other to start")
	fs.DurationVar(&o.grace, "grace", 30*time.Second, "after Ctrl-C, how long the clients have to stop and write their results before the application is killed")
	fs.DurationVar(&o.poll, "poll", time.Second, "how often to ask the ResourceManager and HDFS for progress")
	container := fs.String("container", "", "internal: run as one container of the application, with this job file")
	own, inner, dashes := splitAtDashes(args)
	if err := fs.Parse(own); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return printUsage(stdout, fs, yarnUsage, yarnAbout)
		}
		return usageErr(fmt.Errorf("yarn: %w", err))
	}
	if *container != "" {
		return yarnContainer(ctx, *container, stdout, stderr)
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Errorf("yarn: unexpected %q before --: the command to run goes after --, e.g. %s", fs.Arg(0), yarnUsage))
	}
	if !dashes || len(inner) == 0 {
		return usageErr(fmt.Errorf("yarn: give the command after --: %s", yarnUsage))
	}
	plan, err := o.check(inner)
	if err != nil {
		return err
	}
	return o.submitAndFollow(ctx, plan, stdout, stderr)
}

// splitAtDashes splits args at the first "--".
func splitAtDashes(args []string) (own, inner []string, found bool) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:], true
		}
	}
	return args, nil, false
}

// yarnReserved are the properties gobench yarn sets in every container.
var yarnReserved = []string{"gobench.clients", "gobench.client", "exporter", "exportfile"}

// yarnPlan is what check prepared: the command as the containers run it,
// the files to stage, and the sizes.
type yarnPlan struct {
	command           []string          // with -P files renamed
	files             map[string]string // staged name -> local path
	memoryMB, amMB    int64
	binary, user, dir string
	warnings          []string
}

// check validates the flags and the inner command (as client 0 of N,
// through the same Prepare every run goes through: no connection opens)
// before anything is submitted.
func (o *yarnOptions) check(inner []string) (*yarnPlan, error) {
	var bad []string
	if o.n < 1 {
		bad = append(bad, fmt.Sprintf("-n %d: the number of clients, at least 1", o.n))
	}
	p := &yarnPlan{files: map[string]string{}}
	var err error
	if p.memoryMB, err = parseMiB(o.memory); err != nil {
		bad = append(bad, "-memory "+err.Error())
	}
	if p.amMB, err = parseMiB(o.amMemory); err != nil {
		bad = append(bad, "-am-memory "+err.Error())
	}
	if o.vcores < 1 {
		bad = append(bad, fmt.Sprintf("-vcores %d: at least 1", o.vcores))
	}
	if o.startTimeout <= 0 || o.grace < 0 || o.poll <= 0 {
		bad = append(bad, "-start-timeout and -poll must be > 0, -grace >= 0")
	}
	if len(bad) > 0 {
		return nil, usageErr(errors.New("yarn: " + strings.Join(bad, "; ")))
	}
	var phase engine.Phase
	switch inner[0] {
	case "load":
		phase = engine.Load
	case "run":
		phase = engine.Transactions
	default:
		return nil, usageErr(fmt.Errorf("yarn: %q after --: gobench yarn runs load or run (YCSB's phases), e.g. %s", inner[0], yarnUsage))
	}
	f := newBenchFlags(inner[0])
	f.set.SetOutput(io.Discard)
	if err := f.parse(inner[1:]); err != nil {
		return nil, fmt.Errorf("yarn: %s: %w", inner[0], err)
	}
	for _, ov := range f.overrides {
		k, _, _ := strings.Cut(ov, "=")
		for _, r := range yarnReserved {
			if strings.TrimSpace(k) == r {
				return nil, usageErr(fmt.Errorf("yarn: -p %s: gobench yarn sets %s itself in every container (%s)", ov, r, strings.Join(yarnReserved, ", ")))
			}
		}
	}
	// The command as client 0 of N, checked as the containers will run it.
	probe := append(append([]string(nil), inner[1:]...), "-p", fmt.Sprintf("gobench.clients=%d", o.n), "-p", "gobench.client=0", "-p", "exporter=json", "-p", "exportfile=client-0.json")
	if _, _, err := prepareBench(probe, phase, true, io.Discard); err != nil {
		return nil, fmt.Errorf("yarn: %s: %w", inner[0], err)
	}
	cmd, files, err := stagePropertyFiles(inner)
	if err != nil {
		return nil, usageErr(fmt.Errorf("yarn: %w", err))
	}
	p.command, p.files = cmd, files
	if p.binary, err = yarnBinary(o.binary); err != nil {
		return nil, usageErr(fmt.Errorf("yarn: -binary: %w", err))
	}
	if interp, err := elfInterpreter(p.binary); err == nil && interp != "" {
		p.warnings = append(p.warnings, fmt.Sprintf("%s is dynamically linked (%s): every node needs the same C library; a static build (CGO_ENABLED=0 go build ./cmd/gobench) runs anywhere", p.binary, interp))
	}
	if p.user = o.user; p.user == "" {
		p.user = os.Getenv("HADOOP_USER_NAME")
	}
	if p.user == "" {
		if u, err := user.Current(); err == nil {
			p.user = u.Username
		}
	}
	if !regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`).MatchString(p.user) {
		return nil, usageErr(fmt.Errorf("yarn: -user %q: a user name (letters, digits, _.-)", p.user))
	}
	if p.dir = o.dir; p.dir == "" {
		p.dir = "/user/" + p.user + "/gobench-yarn"
	}
	if !path.IsAbs(p.dir) {
		return nil, usageErr(fmt.Errorf("yarn: -dir %q: an absolute HDFS path", p.dir))
	}
	return p, nil
}

// stagePropertyFiles renames the -P files of a load/run command to the
// names they get in the containers (p0-NAME, p1-NAME, ...) and returns the
// command and the files to stage.
func stagePropertyFiles(inner []string) ([]string, map[string]string, error) {
	out := append([]string(nil), inner...)
	files := map[string]string{}
	stage := func(local string) string {
		name := fmt.Sprintf("p%d-%s", len(files), regexp.MustCompile(`[^A-Za-z0-9_.-]`).ReplaceAllString(filepath.Base(local), "_"))
		files[name] = local
		return name
	}
	for i := 1; i < len(out); i++ {
		a := out[i]
		switch {
		case a == "--":
			i = len(out)
		case (a == "-P" || a == "--property-file") && i+1 < len(out):
			out[i+1] = stage(out[i+1])
			i++
		case strings.HasPrefix(a, "--property-file="):
			out[i] = "--property-file=" + stage(strings.TrimPrefix(a, "--property-file="))
		case strings.HasPrefix(a, "-P") && !strings.HasPrefix(a, "--"):
			out[i] = "-P" + stage(strings.TrimPrefix(strings.TrimPrefix(a, "-P"), "="))
		}
	}
	// The rewrite must have found every -P file pflag sees.
	f := newBenchFlags(inner[0])
	f.set.SetOutput(io.Discard)
	if err := f.parse(out[1:]); err != nil {
		return nil, nil, err
	}
	n := 0
	for _, s := range f.sources {
		if !s.shipped {
			if _, ok := files[s.name]; !ok {
				return nil, nil, fmt.Errorf("cannot ship property file %q (give it as -P FILE)", s.name)
			}
			n++
		}
	}
	if n != len(files) {
		return nil, nil, fmt.Errorf("found %d property files to ship but the command has %d", len(files), n)
	}
	return out, files, nil
}

// yarnBinary is the binary to ship: path, or this executable; it must be
// a Linux ELF executable.
func yarnBinary(p string) (string, error) {
	if p == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", err
		}
		p = exe
	}
	f, err := elf.Open(p)
	if err != nil {
		return "", fmt.Errorf("%s: not a Linux executable (%v); build one with GOOS=linux CGO_ENABLED=0 go build ./cmd/gobench", p, err)
	}
	defer f.Close()
	if f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
		return "", fmt.Errorf("%s: an ELF %v, not an executable", p, f.Type)
	}
	return p, nil
}

// elfInterpreter returns the program interpreter (dynamic loader) an ELF
// binary asks for, "" for a static one.
func elfInterpreter(p string) (string, error) {
	f, err := elf.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	for _, prog := range f.Progs {
		if prog.Type == elf.PT_INTERP {
			b, err := io.ReadAll(prog.Open())
			if err != nil {
				return "", err
			}
			return strings.TrimRight(string(b), "\x00"), nil
		}
	}
	return "", nil
}

// parseMiB reads 1g, 512m, 2048 (MiB) as MiB.
func parseMiB(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	switch {
	case strings.HasSuffix(t, "g"):
		mult, t = 1024, strings.TrimSuffix(t, "g")
	case strings.HasSuffix(t, "m"):
		t = strings.TrimSuffix(t, "m")
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 1 {
		return 0, fmt.Errorf("%q: a size such as 1g, 512m or 2048 (MiB)", s)
	}
	return v * mult, nil
}

// yarnStagingName is the directory below the user's home where
// DistributedShell finds the localized files (and which it deletes when it
// ends).
const yarnStagingName = ".gobench-staging"

// submitAndFollow stages, submits, follows and reports.
func (o *yarnOptions) submitAndFollow(ctx context.Context, p *yarnPlan, stdout, stderr io.Writer) error {
	for _, w := range p.warnings {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	rm := &yarn.Client{URL: o.rm, User: p.user}
	conf, err := rm.Conf(ctx)
	if err != nil {
		return fmt.Errorf("yarn: read the ResourceManager's configuration (-rm %s): %w", o.rm, err)
	}
	fsURL := o.fs
	if fsURL == "" {
		fsURL = conf["fs.defaultFS"]
	}
	nns, err := namenodesOf(fsURL)
	if o.namenode != "" {
		nns, err = strings.Split(o.namenode, ","), nil
	}
	if err != nil {
		return usageErr(fmt.Errorf("yarn: the file system %s (give -fs hdfs://namenode:port, or -namenode host:port): %w", fsURL, err))
	}
	appID, maxRes, err := rm.NewApplication(ctx)
	if err != nil {
		return fmt.Errorf("yarn: %w", err)
	}
	if p.memoryMB > maxRes.MemoryMB || int64(o.vcores) > maxRes.VCores || p.amMB > maxRes.MemoryMB {
		return usageErr(fmt.Errorf("yarn: -memory %d MiB / -am-memory %d MiB / -vcores %d: the cluster's largest container is %d MiB and %d vcores", p.memoryMB, p.amMB, o.vcores, maxRes.MemoryMB, maxRes.VCores))
	}
	dfs, err := dialYarnFS(fsURL, nns, p.user)
	if err != nil {
		return fmt.Errorf("yarn: %w", err)
	}
	defer dfs.Close()
	home := "/user/" + p.user
	staging := yarn.StagingDir(home, yarnStagingName, appID)
	paths := yarnPaths{path.Join(p.dir, appID)}
	removeStaging := func() { dfs.c.RemoveAll(staging) }
	if err := dfs.mkdirs(staging, paths.start(), paths.exit()); err != nil {
		return fmt.Errorf("yarn: %w", err)
	}
	sub, err := o.stage(dfs, p, appID, staging, paths, nns, fsURL, conf)
	if err != nil {
		removeStaging()
		return fmt.Errorf("yarn: %w", err)
	}
	if err := rm.Submit(ctx, sub); err != nil {
		removeStaging()
		return fmt.Errorf("yarn: %w", err)
	}
	fmt.Fprintf(stderr, "gobench yarn: submitted %s to %s: %d clients (%s) in queue %s, %d MiB and %d vcores each\n",
		appID, o.rm, o.n, strings.Join(redactArgs(p.command), " "), o.queue, p.memoryMB, o.vcores)
	fmt.Fprintf(stderr, "gobench yarn: results in %s\n", dfs.resourceURL(paths.dir))
	app, ferr := o.follow(ctx, rm, dfs, paths, appID, stderr)
	removeStaging()
	return o.report(dfs, paths, app, ferr, stdout, stderr)
}

// stage puts the binary, the property files, the job and the application
// master's command on HDFS and returns the submission.
func (o *yarnOptions) stage(dfs *yarnFS, p *yarnPlan, appID, staging string, paths yarnPaths, nns []string, fsURL string, conf map[string]string) (*yarn.Submission, error) {
	localized := []string{"gobench", yarnJobFile}
	if _, _, err := dfs.upload(p.binary, path.Join(staging, "gobench")); err != nil {
		return nil, err
	}
	for name, local := range p.files {
		if _, _, err := dfs.upload(local, path.Join(staging, name)); err != nil {
			return nil, err
		}
		localized = append(localized, name)
	}
	job, _ := json.Marshal(yarnJob{
		Version: version, App: appID, Clients: o.n, FS: fsURL, Namenodes: nns, User: p.user,
		Dir: paths.dir, Command: p.command, StartTimeoutMs: o.startTimeout.Milliseconds(),
	})
	if err := dfs.create(path.Join(staging, yarnJobFile), job, true); err != nil {
		return nil, err
	}
	cmd, err := yarn.WriteUTF("./gobench yarn -container " + yarnJobFile)
	if err != nil {
		return nil, err
	}
	scPath := path.Join(staging, yarn.ShellCommandsFile)
	if err := dfs.create(scPath, cmd, true); err != nil {
		return nil, err
	}
	size, mtime, err := dfs.stat(scPath)
	if err != nil {
		return nil, err
	}
	name := o.name
	if name == "" {
		name = "gobench " + p.command[0]
	}
	ds := &yarn.DistributedShell{
		Name: name, Queue: o.queue, Type: "GOBENCH", Tags: []string{"gobench"},
		AMMemoryMB: p.amMB, AMVCores: 1, AMJavaOpts: yarnAMJavaOpts(p.amMB),
		Classpath:     yarn.AppClasspath(conf),
		ShellCommands: yarn.File(dfs.resourceURL(scPath), size, mtime),
		HomeDir:       "/user/" + p.user, StagingName: yarnStagingName, Localized: localized,
		Containers: o.n, ContainerMemoryMB: p.memoryMB, ContainerVCores: int64(o.vcores),
	}
	if o.amJar != "" {
		jp := path.Join(staging, "AppMaster.jar")
		size, mtime, err := dfs.upload(o.amJar, jp)
		if err != nil {
			return nil, err
		}
		ds.AMFiles = map[string]yarn.LocalResource{"AppMaster.jar": yarn.File(dfs.resourceURL(jp), size, mtime)}
	}
	return ds.Submission(appID)
}

// yarnAMJavaOpts are the JVM options of the application master: a heap of
// 3/4 of its container, and Serial GC with C1 only, since it does little
// but ask for N containers and watch them: it starts sooner and takes
// less of a node's CPU than with the JIT's second tier and parallel GC
// threads (on the loaded 2-core test machine, seconds per application).
func yarnAMJavaOpts(amMB int64) []string {
	return []string{fmt.Sprintf("-Xmx%dm", amMB*3/4), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"}
}
