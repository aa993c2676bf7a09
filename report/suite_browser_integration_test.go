//go:build integration

package report

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// chromium finds Debian's Chromium; the test command installs it
// (testenv/tools.sh). Missing, the test fails: it does not skip.
func chromium(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed (apt-get install chromium; testenv/tools.sh does it)")
	}
	return p
}

// headless runs Chromium as the machine's notes say works here: no
// sandbox (root), no GPU, no network chatter, a fresh profile.
func headless(t *testing.T, args ...string) []byte {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=1280,2000"}
	cmd := exec.Command(chromium(t), append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.Bytes()
}

// The suite page renders in a real browser: the DOM Chromium builds from
// it holds every step and the sentences, and its screenshot shows the bars
// in their colours.
func TestSuitePageRendersInChromium(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "suite.html")
	var b bytes.Buffer
	if err := WriteSuiteHTML(&b, exampleSuite()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(headless(t, "--dump-dom", "file://"+page))
	for _, want := range []string{
		`<tr id="step-1">`, `<tr id="step-5">`,
		"dfsio write aggregate: 38 % of the disk write ceiling measured at 10:02",
		"produce produced: 125 % of the disk write ceiling measured at 10:02",
		`<table id="ceilings">`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered DOM lacks %q", want)
		}
	}
	if strings.Count(dom, `class="cmp"`) != 4 {
		t.Errorf("rendered DOM has %d comparisons, want 4", strings.Count(dom, `class="cmp"`))
	}
	shot := filepath.Join(dir, "suite.png")
	headless(t, "--screenshot="+shot, "file://"+page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	var blue, orange int
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			r, g, b = r>>8, g>>8, b>>8
			switch {
			case near(r, 0x3b) && near(g, 0x7d) && near(b, 0xd8):
				blue++
			case near(r, 0xd8) && near(g, 0x84) && near(b, 0x3b):
				orange++
			}
		}
	}
	// The 38 % and 25 % bars are blue, the 125 % one orange: each at
	// least a few hundred pixels.
	if bd.Dx() != 1280 || blue < 300 || orange < 300 {
		t.Fatalf("screenshot %dx%d: %d blue and %d orange bar pixels", bd.Dx(), bd.Dy(), blue, orange)
	}
}

func near(v, want uint32) bool { return v+8 >= want && v <= want+8 }
