//go:build secure

package smoke

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/testenv/secure"
)

// Kerberized HDFS with Hadoop's own client (hdfs dfs): jason writes and reads back a
// multi-block file with his keytab and with kinit's ticket cache; nogrant is refused by
// the permissions (AccessControlException); without credentials the NameNode refuses
// to talk at all.
func TestSecureHDFSJava(t *testing.T) {
	e := secureEnv(t, "hdfs")
	ctx := ctxFor(t, 8*time.Minute)
	dir := t.TempDir()
	data := make([]byte, 3<<20+12345)
	rand.Read(data)
	local := filepath.Join(dir, "in")
	if err := os.WriteFile(local, data, 0o600); err != nil {
		t.Fatal(err)
	}
	remote := "/user/jason/smoke-" + unique()
	back := filepath.Join(dir, "out")
	var outs []string
	o, eo, err := e.HDFS(ctx, secure.Jason, "-D dfs.blocksize=1048576 -put "+local+" "+remote, "-get "+remote+" "+back, "-stat %b:%r:%u "+remote)
	outs = append(outs, o, eo)
	if err != nil {
		t.Fatalf("as jason (keytab): %v", err)
	}
	got, err := os.ReadFile(back)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes (%v), wrote %d", len(got), err, len(data))
	}
	if want := fmt.Sprintf("%d:1:jason", len(data)); !strings.Contains(o, want) {
		t.Errorf("stat: %q, want %q (size:replication:owner)", o, want)
	}

	cc, err := e.Kinit(ctx, secure.Jason)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("KRB5CCNAME", cc)
	o, eo, err = e.HDFS(ctx, "ticket", "-ls "+remote)
	outs = append(outs, o, eo)
	if err != nil || !strings.Contains(o, remote) {
		t.Errorf("as jason (kinit's ticket cache): %v; out %q", err, o)
	}

	t.Setenv("KRB5CCNAME", filepath.Join(dir, "no-such-cache"))
	o, eo, err = e.HDFS(ctx, "ticket", "-ls /")
	outs = append(outs, o, eo)
	if err == nil {
		t.Errorf("no credentials: listed / (%q)", o)
	} else if !strings.Contains(eo, "Client cannot authenticate via:[TOKEN, KERBEROS]") {
		t.Errorf("no credentials: %v (want \"Client cannot authenticate via:[TOKEN, KERBEROS]\")", err)
	}

	o, eo, err = e.HDFS(ctx, secure.NoGrant, "-cat "+remote)
	outs = append(outs, o, eo)
	if err == nil {
		t.Errorf("nogrant read jason's file")
	} else if !strings.Contains(eo, "Permission denied: user=nogrant") {
		t.Errorf("nogrant: %v (want Permission denied: user=nogrant)", err)
	}
	if _, _, err := e.HDFS(ctx, secure.Jason, "-rm -skipTrash "+remote); err != nil {
		t.Errorf("clean up: %v", err)
	}
	noSecrets(t, e, outs...)
}
