package kubernetes

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	_ "github.com/gobench/gobench/drivers/hbase" // the ConfigMap's db
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
)

// manifests are the YAML files of this directory, by name.
func manifests(t *testing.T) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no manifests (%v)", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = b
	}
	return out
}

// decoded is every object of the manifests, by kind and name.
type decoded struct {
	jobs       map[string]*batchv1.Job
	configMaps map[string]*corev1.ConfigMap
	pvcs       map[string]*corev1.PersistentVolumeClaim
}

// decode decodes each file strictly into its kind's API type: an unknown
// (misspelled) or duplicated field is an error.
func decode(files map[string][]byte) (*decoded, []error) {
	d := &decoded{jobs: map[string]*batchv1.Job{}, configMaps: map[string]*corev1.ConfigMap{}, pvcs: map[string]*corev1.PersistentVolumeClaim{}}
	var errs []error
	for name, b := range files {
		var tm struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := yaml.Unmarshal(b, &tm); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		var obj any
		var objName *string
		var keep func()
		switch want := tm.APIVersion + " " + tm.Kind; want {
		case "batch/v1 Job":
			j := &batchv1.Job{}
			obj, objName, keep = j, &j.Name, func() { d.jobs[j.Name] = j }
		case "v1 ConfigMap":
			c := &corev1.ConfigMap{}
			obj, objName, keep = c, &c.Name, func() { d.configMaps[c.Name] = c }
		case "v1 PersistentVolumeClaim":
			p := &corev1.PersistentVolumeClaim{}
			obj, objName, keep = p, &p.Name, func() { d.pvcs[p.Name] = p }
		default:
			errs = append(errs, fmt.Errorf("%s: apiVersion/kind %q: not one the test knows (batch/v1 Job, v1 ConfigMap, v1 PersistentVolumeClaim)", name, want))
			continue
		}
		if err := yaml.UnmarshalStrict(b, obj); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if *objName == "" {
			errs = append(errs, fmt.Errorf("%s: no metadata.name", name))
		}
		keep()
	}
	return d, errs
}

// indexAnnotation is where Kubernetes puts an Indexed Job pod's index.
const indexAnnotation = "metadata.annotations['batch.kubernetes.io/job-completion-index']"

// checkManifests checks the decoded objects against each other and
// against gobench: the Indexed Jobs' wiring, the volumes and ConfigMap
// they name, the merge Job's input, and the workload (through
// workload.Prepare, as each pod's gobench will prepare it).
func checkManifests(files map[string][]byte) []error {
	d, errs := decode(files)
	if len(errs) > 0 {
		return errs
	}
	bad := func(f string, a ...any) { errs = append(errs, fmt.Errorf(f, a...)) }
	var runDir string
	for _, name := range []string{"gobench-load", "gobench-run"} {
		j, ok := d.jobs[name]
		if !ok {
			bad("no Job %s", name)
			continue
		}
		s := j.Spec
		if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
			bad("%s: completionMode is not Indexed: the pods get no completion index", name)
		}
		if s.BackoffLimit == nil || *s.BackoffLimit != 0 {
			bad("%s: backoffLimit must be 0: a retried pod would run its client's slice again", name)
		}
		if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
			bad("%s: restartPolicy %q, want Never", name, s.Template.Spec.RestartPolicy)
		}
		if len(s.Template.Spec.Containers) != 1 {
			bad("%s: %d containers, want 1", name, len(s.Template.Spec.Containers))
			continue
		}
		c := s.Template.Spec.Containers[0]
		script := strings.Join(append(append([]string(nil), c.Command...), c.Args...), " ")
		clients := propArg(script, "gobench.clients")
		n, err := strconv.Atoi(clients)
		if err != nil || n < 1 {
			bad("%s: -p gobench.clients=%q: want the number of clients", name, clients)
			continue
		}
		if s.Completions == nil || int(*s.Completions) != n {
			bad("%s: completions %v but gobench.clients=%d: every client number must run once", name, ptrVal(s.Completions), n)
		}
		if s.Parallelism == nil || int(*s.Parallelism) != n {
			bad("%s: parallelism %v but gobench.clients=%d: the clients must run together", name, ptrVal(s.Parallelism), n)
		}
		if v := propArg(script, "gobench.client"); v != "$JOB_COMPLETION_INDEX" {
			bad("%s: -p gobench.client=%q, want $JOB_COMPLETION_INDEX (the pod's index)", name, v)
		}
		if !hasIndexEnv(c.Env) {
			bad("%s: no env JOB_COMPLETION_INDEX from fieldRef %s", name, indexAnnotation)
		}
		export := propArg(script, "exportfile")
		if propArg(script, "exporter") != "json" || !strings.Contains(export, "$JOB_COMPLETION_INDEX") {
			bad("%s: exporter=%q exportfile=%q: want json, one file per index", name, propArg(script, "exporter"), export)
		}
		if name == "gobench-run" {
			runDir = path.Dir(export)
		}
		errs = append(errs, checkVolumes(name, d, s.Template.Spec, c, export)...)
		errs = append(errs, checkWorkload(name, d, s.Template.Spec, c, script)...)
	}
	if m, ok := d.jobs["gobench-merge"]; !ok {
		bad("no Job gobench-merge")
	} else if c := m.Spec.Template.Spec.Containers; len(c) != 1 || !strings.Contains(strings.Join(c[0].Args, " "), runDir+"/client-*.json") {
		bad("gobench-merge: does not merge %s/client-*.json, where gobench-run writes", runDir)
	}
	return errs
}

func ptrVal(p *int32) any {
	if p == nil {
		return "unset"
	}
	return *p
}

func hasIndexEnv(env []corev1.EnvVar) bool {
	for _, e := range env {
		if e.Name == "JOB_COMPLETION_INDEX" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil &&
			e.ValueFrom.FieldRef.FieldPath == indexAnnotation {
			return true
		}
	}
	return false
}

// propArg returns the value of -p key=value in a shell command line.
func propArg(script, key string) string {
	m := regexp.MustCompile(`-p\s+` + regexp.QuoteMeta(key) + `=(\S+)`).FindStringSubmatch(script)
	if m == nil {
		return ""
	}
	return m[1]
}

// checkVolumes: the result file goes to a mounted volume that is the
// PVC; the workload directory is the ConfigMap.
func checkVolumes(name string, d *decoded, pod corev1.PodSpec, c corev1.Container, export string) []error {
	var errs []error
	vols := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		vols[v.Name] = v
	}
	onVolume := false
	for _, m := range c.VolumeMounts {
		v, ok := vols[m.Name]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: volumeMount %s names no volume", name, m.Name))
			continue
		}
		switch {
		case v.PersistentVolumeClaim != nil:
			if _, ok := d.pvcs[v.PersistentVolumeClaim.ClaimName]; !ok {
				errs = append(errs, fmt.Errorf("%s: volume %s claims %q, which no manifest defines", name, v.Name, v.PersistentVolumeClaim.ClaimName))
			}
			onVolume = onVolume || strings.HasPrefix(export, m.MountPath+"/")
		case v.ConfigMap != nil:
			if _, ok := d.configMaps[v.ConfigMap.Name]; !ok {
				errs = append(errs, fmt.Errorf("%s: volume %s is ConfigMap %q, which no manifest defines", name, v.Name, v.ConfigMap.Name))
			}
		}
	}
	if !onVolume {
		errs = append(errs, fmt.Errorf("%s: exportfile %s is not on the results volume", name, export))
	}
	return errs
}

// checkWorkload finds the -P file in the ConfigMap the pod mounts and
// prepares the run as client 0 with gobench's own Prepare: every key
// known, every value valid, no connection opened.
func checkWorkload(name string, d *decoded, pod corev1.PodSpec, c corev1.Container, script string) []error {
	m := regexp.MustCompile(`gobench (load|run) (.*)`).FindStringSubmatch(script)
	if m == nil {
		return []error{fmt.Errorf("%s: no gobench load|run in %q", name, script)}
	}
	set := &props.Set{}
	fields := strings.Fields(m[2])
	for i := 0; i < len(fields); i++ {
		switch f := fields[i]; {
		case f == "-P" && i+1 < len(fields):
			text, err := configMapFile(d, pod, c, fields[i+1])
			if err != nil {
				return []error{fmt.Errorf("%s: -P %s: %w", name, fields[i+1], err)}
			}
			vals, err := props.Parse(strings.NewReader(text), fields[i+1])
			if err != nil {
				return []error{fmt.Errorf("%s: %w", name, err)}
			}
			set.Add(vals...)
			i++
		case f == "-p" && i+1 < len(fields):
			v, err := props.ParseOverride(strings.ReplaceAll(fields[i+1], "$JOB_COMPLETION_INDEX", "0"), name)
			if err != nil {
				return []error{fmt.Errorf("%s: %w", name, err)}
			}
			set.Add(v)
			i++
		case f == "-threads" && i+1 < len(fields):
			set.Add(props.Value{Key: "threadcount", Value: fields[i+1], Source: name})
			i++
		case f == "-s":
		default:
			return []error{fmt.Errorf("%s: the test does not know gobench's flag %q", name, f)}
		}
	}
	if m[1] == "load" {
		set.Add(props.Value{Key: "dotransactions", Value: "false", Source: name})
	}
	if _, err := workload.Prepare(set); err != nil {
		return []error{fmt.Errorf("%s: the workload does not prepare: %w", name, err)}
	}
	return nil
}

// configMapFile returns the content of a file the pod reads from a
// mounted ConfigMap.
func configMapFile(d *decoded, pod corev1.PodSpec, c corev1.Container, file string) (string, error) {
	for _, m := range c.VolumeMounts {
		rel, ok := strings.CutPrefix(file, m.MountPath+"/")
		if !ok {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.ConfigMap != nil {
				cm, ok := d.configMaps[v.ConfigMap.Name]
				if !ok {
					return "", fmt.Errorf("ConfigMap %s is not defined", v.ConfigMap.Name)
				}
				text, ok := cm.Data[rel]
				if !ok {
					return "", fmt.Errorf("ConfigMap %s has no key %s", cm.Name, rel)
				}
				return text, nil
			}
		}
	}
	return "", errors.New("not in a mounted ConfigMap")
}

func TestManifestsAreValid(t *testing.T) {
	for _, err := range checkManifests(manifests(t)) {
		t.Error(err)
	}
}

// The check fails on what it is for: a misspelled field, wiring that does
// not give every client number exactly once, a workload key gobench does
// not know. Each case edits one manifest in memory.
func TestManifestCheckCatchesMistakes(t *testing.T) {
	for _, c := range []struct {
		name, file, old, new, want string
	}{
		{"misspelled field", "run-job.yaml", "completionMode: Indexed", "completionMod: Indexed", `run-job.yaml: error unmarshaling JSON: while decoding JSON: json: unknown field "completionMod"`},
		{"misspelled nested field", "load-job.yaml", "restartPolicy: Never", "restartPolicyy: Never", `load-job.yaml: error unmarshaling JSON: while decoding JSON: json: unknown field "restartPolicyy"`},
		{"completions", "run-job.yaml", "completions: 4", "completions: 3", "gobench-run: completions 3 but gobench.clients=4"},
		{"parallelism", "load-job.yaml", "parallelism: 4", "parallelism: 2", "gobench-load: parallelism 2 but gobench.clients=4"},
		{"not indexed", "load-job.yaml", "completionMode: Indexed", "completionMode: NonIndexed", "gobench-load: completionMode is not Indexed"},
		{"fixed client number", "run-job.yaml", "gobench.client=$JOB_COMPLETION_INDEX", "gobench.client=0", `gobench-run: -p gobench.client="0", want $JOB_COMPLETION_INDEX`},
		{"index env", "run-job.yaml", "batch.kubernetes.io/job-completion-index", "batch.kubernetes.io/job-index", "gobench-run: no env JOB_COMPLETION_INDEX"},
		{"one file for all", "load-job.yaml", "client-$JOB_COMPLETION_INDEX.json", "client.json", "one file per index"},
		{"merge input", "merge-job.yaml", "/results/run/client-*.json", "/results/load/client-*.json", "gobench-merge: does not merge /results/run/client-*.json"},
		{"workload key", "workload-configmap.yaml", "recordcount=", "recordcont=", "recordcont"},
		{"claim", "results-pvc.yaml", "name: gobench-results", "name: gobench-result", `claims "gobench-results", which no manifest defines`},
	} {
		files := manifests(t)
		if !strings.Contains(string(files[c.file]), c.old) {
			t.Fatalf("%s: %s has no %q to change", c.name, c.file, c.old)
		}
		files[c.file] = []byte(strings.ReplaceAll(string(files[c.file]), c.old, c.new))
		errs := checkManifests(files)
		if !strings.Contains(fmt.Sprint(errs), c.want) {
			t.Errorf("%s: errors %v, want one with %q", c.name, errs, c.want)
		}
	}
}
