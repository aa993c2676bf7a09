//go:build secure

package hdfs

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/testenv/secure"
)

// On the Kerberized HDFS (protection authentication) records and files go
// through gobench's own client, authenticated with SASL GSSAPI on the
// NameNode and SASL DIGEST-MD5 with the block token on the DataNode: an
// insert is its 3 NameNode calls (create, addBlock, complete), a read one;
// a positional read returns exactly the bytes asked for. hdfs.client=
// colinmarc sends the same through colinmarc's client.
func TestSecureWireClient(t *testing.T) {
	e, err := secure.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Check("hdfs"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KRB5_CONFIG", e.Krb5Conf())
	t.Setenv("HADOOP_CONF_DIR", "")
	ctx := context.Background()
	table := "user/jason/gobench-wire-" + strconv.FormatInt(time.Now().UnixNano()%1e9, 36)
	for _, client := range []string{"gobench", "colinmarc"} {
		var set props.Set
		for k, v := range map[string]string{KeyConfDir: e.ConfDir(), KeyPrincipal: secure.Jason, KeyKeytab: e.Keytab(secure.Jason), KeyClient: client} {
			set.Add(props.Value{Key: k, Value: v, Source: "test"})
		}
		d, err := Driver{}.Configure(props.NewDecoder(&set), drivers.Schema{Table: table, Fields: []string{"f0", "f1"}})
		if err != nil {
			t.Fatal(err)
		}
		db := d.(*DB)
		if err := db.Prepare(ctx); err != nil {
			t.Fatalf("%s: prepare: %v", client, err)
		}
		if db.who != secure.Principal(secure.Jason) {
			t.Errorf("%s: logged in as %q, want %s", client, db.who, secure.Principal(secure.Jason))
		}
		conn, err := db.Open(ctx)
		if err != nil {
			t.Fatalf("%s: open: %v", client, err)
		}
		c := conn.(*Conn)
		if (c.nn != nil) != (client == "gobench") {
			t.Fatalf("%s: own NameNode connection %v", client, c.nn != nil)
		}
		rec := drivers.NewRecord(2)
		rec.Set(0, []byte("zero"))
		rec.Set(1, bytes.Repeat([]byte("x"), 1000))
		key := []byte("user" + client)
		if err := c.Insert(ctx, table, key, rec); err != nil {
			t.Fatalf("%s: insert: %v", client, err)
		}
		got := drivers.NewRecord(2)
		if err := c.Read(ctx, table, key, nil, got); err != nil {
			t.Fatalf("%s: read: %v", client, err)
		}
		if v, _ := got.Get(1); len(v) != 1000 {
			t.Errorf("%s: read back %d bytes of f1", client, len(v))
		}
		if c.nn != nil {
			want := map[string]int{"create": 1, "addBlock": 1, "getBlockLocations": 1}
			for m, n := range want {
				if c.nn.Calls[m] != n {
					t.Errorf("%s: %d %s calls, want %d (all: %v)", client, c.nn.Calls[m], m, n, c.nn.Calls)
				}
			}
		}
		name := "/" + table + "/file-" + client
		w, err := c.Create(ctx, name, 0)
		if err != nil {
			t.Fatal(err)
		}
		data := make([]byte, 3<<20)
		for i := range data {
			data[i] = byte(i * 7)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := c.Open(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4096)
		if n, err := r.ReadAt(buf, 2<<20+3); err != nil && err != io.EOF || n != len(buf) || !bytes.Equal(buf, data[2<<20+3:2<<20+3+4096]) {
			t.Errorf("%s: pread: %d, %v", client, n, err)
		}
		all, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(all, data) {
			t.Errorf("%s: sequential read %d bytes, %v", client, len(all), err)
		}
		r.Close()
		c.Close(ctx)
		if client == "colinmarc" {
			if err := db.DropTable(ctx, table); err != nil {
				t.Errorf("drop /%s: %v", table, err)
			}
		}
		db.Close()
	}
}
