package kubernetes

import (
	"bufio"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// There is no Docker engine here, so the image itself is never built.
// What can be checked is: the final stage holds the binary the build
// stage makes, at the path the Jobs run it from; that binary, built with
// the Dockerfile's own command, is static (no program interpreter, no
// shared libraries) and runs in an empty root file system, as it would in
// a scratch image; the final stage has the /bin/sh the Jobs' commands use.

// stage is one FROM ... of a Dockerfile and its instructions.
type stage struct {
	from, name string
	lines      []string
}

func dockerfileStages(t *testing.T) []stage {
	t.Helper()
	f, err := os.Open("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []stage
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if m := regexp.MustCompile(`^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$`).FindStringSubmatch(line); m != nil {
			out = append(out, stage{from: m[1], name: m[2]})
			continue
		}
		if len(out) == 0 {
			t.Fatalf("Dockerfile: %q before FROM", line)
		}
		out[len(out)-1].lines = append(out[len(out)-1].lines, line)
	}
	if len(out) < 2 {
		t.Fatalf("Dockerfile: %d stages, want a build stage and a final one", len(out))
	}
	return out
}

func TestImageHoldsAStaticBinary(t *testing.T) {
	stages := dockerfileStages(t)
	build, final := stages[0], stages[len(stages)-1]

	// The build stage's go build, rerun here with its environment and flags.
	var goBuild string
	for _, l := range build.lines {
		if strings.HasPrefix(l, "RUN ") && strings.Contains(l, "go build") {
			goBuild = strings.TrimPrefix(l, "RUN ")
		}
	}
	m := regexp.MustCompile(`^((?:[A-Z_]+=\S+\s+)*)go build (.*) -o (\S+) (\./cmd/gobench)$`).FindStringSubmatch(goBuild)
	if m == nil {
		t.Fatalf("Dockerfile: no RUN [ENV=...] go build ... -o OUT ./cmd/gobench in the build stage (%q)", goBuild)
	}
	env, flags, out := strings.Fields(m[1]), m[2], m[3]
	if !strings.Contains(m[1], "CGO_ENABLED=0") {
		t.Errorf("the build does not set CGO_ENABLED=0: the binary may need the C library the final image lacks")
	}
	bin := filepath.Join(t.TempDir(), "gobench")
	// The flags as the shell would split them (-ldflags "-s -w").
	var args []string
	for _, a := range regexp.MustCompile(`"[^"]*"|\S+`).FindAllString(flags, -1) {
		args = append(args, strings.Trim(a, `"`))
	}
	cmd := exec.Command("go", append(append([]string{"build"}, args...), "-o", bin, m[4])...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", goBuild, err, b)
	}

	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("the binary asks for a program interpreter (dynamically linked)")
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v (%v)", libs, err)
	}

	// A scratch image's root: nothing but the binary.
	if os.Geteuid() == 0 && runtime.GOOS == "linux" {
		root := t.TempDir()
		if err := os.Link(bin, filepath.Join(root, "gobench")); err != nil {
			b, _ := os.ReadFile(bin)
			os.WriteFile(filepath.Join(root, "gobench"), b, 0o755)
		}
		b, err := exec.Command("chroot", root, "/gobench", "version").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(b), "gobench ") {
			t.Errorf("the binary in an empty root file system: %v\n%s", err, b)
		}
	} else {
		t.Log("not root: the run in an empty root file system (chroot) was not tried")
	}

	// The final stage copies that binary to where the Jobs run it.
	var copied, entry bool
	for _, l := range final.lines {
		if regexp.MustCompile(`^COPY --from=` + regexp.QuoteMeta(build.name) + `\s+` + regexp.QuoteMeta(out) + `\s+/usr/local/bin/gobench$`).MatchString(l) {
			copied = true
		}
		if l == `ENTRYPOINT ["/usr/local/bin/gobench"]` {
			entry = true
		}
	}
	if !copied || !entry {
		t.Errorf("final stage (FROM %s): COPY --from=%s %s /usr/local/bin/gobench: %v, ENTRYPOINT /usr/local/bin/gobench: %v", final.from, build.name, out, copied, entry)
	}
	// The Jobs run /bin/sh -c "... gobench ...": the final image needs a
	// shell, which scratch and distroless's static image do not have.
	for name, b := range manifests(t) {
		if strings.Contains(string(b), `"/bin/sh"`) && (final.from == "scratch" || strings.Contains(final.from, "distroless")) {
			t.Errorf("%s runs /bin/sh but the final image is %s, which has no shell", name, final.from)
		}
	}
}
