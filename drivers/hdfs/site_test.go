package hdfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

// writeConf writes a conf dir like a secured cluster's.
func writeConf(t *testing.T, core, hdfs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, m := range map[string]map[string]string{"core-site.xml": core, "hdfs-site.xml": hdfs} {
		var b strings.Builder
		b.WriteString("<?xml version=\"1.0\"?>\n<configuration>\n")
		for k, v := range m {
			b.WriteString("  <property><name>" + k + "</name><value>" + v + "</value></property>\n")
		}
		b.WriteString("</configuration>\n")
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func configure(t *testing.T, kv ...string) (Config, error) {
	t.Helper()
	var set props.Set
	for i := 0; i+1 < len(kv); i += 2 {
		set.Add(props.Value{Key: kv[i], Value: kv[i+1], Source: "-p"})
	}
	db, err := Driver{}.Configure(props.NewDecoder(&set), drivers.Schema{Table: "t"})
	if err != nil {
		return Config{}, err
	}
	return db.(*DB).Config(), nil
}

var secureCore = map[string]string{
	"fs.defaultFS": "hdfs://nn.example:8020", "hadoop.security.authentication": "Kerberos",
	"hadoop.rpc.protection": "privacy",
}
var secureHDFS = map[string]string{
	"dfs.namenode.kerberos.principal": "nn/_HOST@EXAMPLE.COM", "dfs.data.transfer.protection": "authentication,integrity",
}

func TestConfDirKerberos(t *testing.T) {
	t.Setenv("HADOOP_CONF_DIR", "")
	dir := writeConf(t, secureCore, secureHDFS)
	kt := filepath.Join(t.TempDir(), "jason.keytab")
	os.WriteFile(kt, []byte{5, 2}, 0o600)
	c, err := configure(t, KeyConfDir, dir, KeyYCSBPrincipal, "jason", KeyYCSBKeytab, kt)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Namenodes, ","); got != "nn.example:8020" {
		t.Errorf("namenodes %s, want fs.defaultFS's nn.example:8020", got)
	}
	if c.Kerberos == nil || c.Kerberos.NNPrincipal != "nn/_HOST" || c.Kerberos.Realm != "EXAMPLE.COM" ||
		c.Kerberos.Principal != "jason" || c.Kerberos.Keytab != kt {
		t.Errorf("kerberos %+v", c.Kerberos)
	}
	if c.Protection != "integrity" || !c.Secure() || c.ConfDir != dir {
		t.Errorf("protection %q secure %v dir %q; want the strongest (integrity), secure, %s", c.Protection, c.Secure(), c.ConfDir, dir)
	}
	if got := c.Kerberos.spn("nn.example"); got != "nn/nn.example" {
		t.Errorf("spn %s", got)
	}

	// HADOOP_CONF_DIR when hdfs.conf.dir is unset; -cp's directory before it;
	// a property beats the files; hdfs.namenode beats fs.defaultFS.
	t.Setenv("HADOOP_CONF_DIR", dir)
	if c, err = configure(t); err != nil || c.Kerberos == nil || c.ConfDir != dir {
		t.Errorf("HADOOP_CONF_DIR: %v, %+v", err, c)
	}
	plain := writeConf(t, map[string]string{"fs.defaultFS": "hdfs://plain:9000"}, nil)
	if c, err = configure(t, KeyClasspath, "/x.jar:"+plain); err != nil || c.Kerberos != nil || c.Namenodes[0] != "plain:9000" {
		t.Errorf("-cp: %v, %+v", err, c)
	}
	if c, err = configure(t, KeyAuthentication, "simple", KeyTransferProt, "", KeyNamenode, "h:1"); err != nil || c.Secure() || c.Namenodes[0] != "h:1" {
		t.Errorf("overrides: %v, %+v", err, c)
	}
	t.Setenv("HADOOP_CONF_DIR", "")
	if c, err = configure(t); err != nil || c.Secure() || c.Namenodes[0] != DefaultNamenode {
		t.Errorf("no conf dir: %v, %+v", err, c)
	}
}

func TestConfDirHA(t *testing.T) {
	t.Setenv("HADOOP_CONF_DIR", "")
	dir := writeConf(t, map[string]string{"fs.defaultFS": "hdfs://mycluster"}, map[string]string{
		"dfs.ha.namenodes.mycluster": "nn1, nn2", "dfs.namenode.rpc-address.mycluster.nn1": "a:8020",
		"dfs.namenode.rpc-address.mycluster.nn2": "b:8020"})
	c, err := configure(t, KeyConfDir, dir)
	if err != nil || strings.Join(c.Namenodes, ",") != "a:8020,b:8020" {
		t.Errorf("%v, %v", err, c.Namenodes)
	}
}

// Bad settings are configuration errors (exit 2) naming the key and value;
// a keytab that is not there names the principal.
func TestConfDirErrors(t *testing.T) {
	t.Setenv("HADOOP_CONF_DIR", "")
	krb := writeConf(t, secureCore, secureHDFS)
	noPrinc := writeConf(t, secureCore, nil)
	for _, c := range []struct {
		kv   []string
		want []string
	}{
		{[]string{KeyConfDir, "/no/such/dir"}, []string{KeyConfDir, "/no/such/dir", "no core-site.xml or hdfs-site.xml"}},
		{[]string{KeyConfDir, noPrinc}, []string{"needs dfs.namenode.kerberos.principal", noPrinc}},
		{[]string{KeyConfDir, krb, KeyPrincipal, "jason", KeyKeytab, "/no/jason.keytab"}, []string{"Kerberos login as jason", "/no/jason.keytab", "no such file"}},
		{[]string{KeyConfDir, krb, KeyKeytab, "/k"}, []string{"needs " + KeyPrincipal}},
		{[]string{KeyPrincipal, "jason"}, []string{KeyAuthentication, `"simple"`}},
		{[]string{KeyConfDir, krb, KeyTransferProt, "secret-ish"}, []string{KeyTransferProt, "secret-ish", "authentication, integrity, privacy"}},
		{[]string{KeyAuthentication, "ldap"}, []string{KeyAuthentication, "ldap", "simple, kerberos"}},
		{[]string{KeyEncryptTransfer, "yes"}, []string{KeyEncryptTransfer, "yes"}},
		{[]string{KeyDefaultFS, "s3a://bucket"}, []string{"fs.defaultFS", "s3a://bucket"}},
		{[]string{KeyPrincipal, "a", KeyYCSBPrincipal, "b"}, []string{"disagree"}},
	} {
		_, err := configure(t, c.kv...)
		if err == nil {
			t.Errorf("%v: accepted", c.kv)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %v (want %q)", c.kv, err, w)
			}
		}
	}
}
