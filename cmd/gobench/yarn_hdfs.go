package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path"
	"strings"
	"time"

	hdfsc "github.com/colinmarc/hdfs/v2"
)

// yarnFS is the HDFS that gobench yarn stages its files on and the clients
// write their results to.
type yarnFS struct {
	c *hdfsc.Client
	// url is the file system's URL as the NodeManagers know it
	// (fs.defaultFS, hdfs://nameservice or hdfs://nn:port): the prefix of
	// every local resource.
	url string
}

// namenodesOf returns the host:port of an hdfs:// URL (default port 8020).
func namenodesOf(fsURL string) ([]string, error) {
	u, err := url.Parse(fsURL)
	if err != nil || u.Scheme != "hdfs" || u.Host == "" {
		return nil, fmt.Errorf("%q is not an hdfs://host:port URL", fsURL)
	}
	var out []string
	for _, h := range strings.Split(u.Host, ",") {
		if _, _, err := net.SplitHostPort(h); err != nil {
			h = net.JoinHostPort(h, "8020")
		}
		out = append(out, h)
	}
	return out, nil
}

func dialYarnFS(fsURL string, namenodes []string, user string) (*yarnFS, error) {
	d := &net.Dialer{Timeout: 10 * time.Second}
	c, err := hdfsc.NewClient(hdfsc.ClientOptions{Addresses: namenodes, User: user, NamenodeDialFunc: d.DialContext, DatanodeDialFunc: d.DialContext})
	if err != nil {
		return nil, fmt.Errorf("hdfs: connect to namenode %s: %w", strings.Join(namenodes, ","), err)
	}
	return &yarnFS{c: c, url: strings.TrimSuffix(fsURL, "/")}, nil
}

func (f *yarnFS) Close() error { return f.c.Close() }

// resourceURL is the URL of an absolute path on this file system.
func (f *yarnFS) resourceURL(p string) string { return f.url + p }

// create writes data to a new file p (failing if it exists when excl),
// retrying the close while the block is being replicated, as Java's client
// does.
func (f *yarnFS) create(p string, data []byte, excl bool) error {
	_, _, err := f.createTimed(p, data, excl)
	return err
}

// createTimed is create, returning the local times just before and after
// the close that completed the file (the NameNode stamps its modification
// time in between).
func (f *yarnFS) createTimed(p string, data []byte, excl bool) (time.Time, time.Time, error) {
	if !excl {
		if err := f.c.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return time.Time{}, time.Time{}, fmt.Errorf("hdfs: replace %s: %w", p, err)
		}
	}
	w, err := f.c.Create(p)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("hdfs: create %s: %w", p, err)
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return time.Time{}, time.Time{}, fmt.Errorf("hdfs: write %s: %w", p, err)
	}
	var t1 time.Time
	for delay := 100 * time.Millisecond; ; delay *= 2 {
		t1 = time.Now()
		err = w.Close()
		if err == nil || !hdfsc.IsErrReplicating(err) || delay > 10*time.Second {
			break
		}
		time.Sleep(delay)
	}
	t2 := time.Now()
	if err != nil {
		return t1, t2, fmt.Errorf("hdfs: close %s: %w", p, err)
	}
	return t1, t2, nil
}

// put writes data to p through p.tmp and a rename, so a reader sees all
// of it or nothing.
func (f *yarnFS) put(p string, data []byte) error {
	tmp := p + ".tmp"
	if err := f.create(tmp, data, false); err != nil {
		return err
	}
	if err := f.c.Rename(tmp, p); err != nil {
		return fmt.Errorf("hdfs: rename %s to %s: %w", tmp, p, err)
	}
	return nil
}

// upload copies the local file src to p; it returns the file's size and
// modification time (ms), which its local resource must state.
func (f *yarnFS) upload(src, p string) (int64, int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, 0, err
	}
	defer in.Close()
	w, err := f.c.Create(p)
	if err != nil {
		return 0, 0, fmt.Errorf("hdfs: create %s: %w", p, err)
	}
	if _, err := io.Copy(w, in); err != nil {
		w.Close()
		return 0, 0, fmt.Errorf("hdfs: write %s: %w", p, err)
	}
	for delay := 100 * time.Millisecond; ; delay *= 2 {
		err = w.Close()
		if err == nil || !hdfsc.IsErrReplicating(err) || delay > 10*time.Second {
			break
		}
		time.Sleep(delay)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("hdfs: close %s: %w", p, err)
	}
	return f.stat(p)
}

// stat returns a file's size and modification time (ms, the NameNode's
// clock).
func (f *yarnFS) stat(p string) (int64, int64, error) {
	fi, err := f.c.Stat(p)
	if err != nil {
		return 0, 0, fmt.Errorf("hdfs: stat %s: %w", p, err)
	}
	return fi.Size(), fi.ModTime().UnixMilli(), nil
}

// names lists a directory's file names (none when it does not exist).
func (f *yarnFS) names(dir string) ([]string, error) {
	fis, err := f.c.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("hdfs: list %s: %w", dir, err)
	}
	out := make([]string, 0, len(fis))
	for _, fi := range fis {
		out = append(out, fi.Name())
	}
	return out, nil
}

// read returns a file's content; os.ErrNotExist when it is not there.
func (f *yarnFS) read(p string) ([]byte, error) {
	b, err := f.c.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("hdfs: read %s: %w", p, err)
	}
	return b, nil
}

func (f *yarnFS) exists(p string) bool {
	_, err := f.c.Stat(p)
	return err == nil
}

func (f *yarnFS) mkdirs(dirs ...string) error {
	for _, d := range dirs {
		if err := f.c.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("hdfs: mkdir %s: %w", d, err)
		}
	}
	return nil
}

// yarnPaths are the files of one application on HDFS, below dir/<app id>.
type yarnPaths struct{ dir string }

func (p yarnPaths) start() string         { return path.Join(p.dir, "start") }
func (p yarnPaths) startOf(k int) string  { return path.Join(p.dir, "start", fmt.Sprintf("%d.json", k)) }
func (p yarnPaths) exitOf(k int) string   { return path.Join(p.dir, "exit", fmt.Sprintf("%d.json", k)) }
func (p yarnPaths) exit() string          { return path.Join(p.dir, "exit") }
func (p yarnPaths) resultOf(k int) string { return path.Join(p.dir, yarnResultName(k)) }
func (p yarnPaths) stop() string          { return path.Join(p.dir, "stop") }
func yarnResultName(k int) string         { return fmt.Sprintf("client-%d.json", k) }
