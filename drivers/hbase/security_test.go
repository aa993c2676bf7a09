package hbase

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase/hbclient"
)

const testKrb5Conf = `[libdefaults]
 default_realm = EXAMPLE.TEST
[realms]
 EXAMPLE.TEST = {
  kdc = 127.0.0.1:1
 }
`

// secureDir writes a krb5.conf (KRB5_CONFIG), a keytab file and a secured
// hbase-site.xml (with extra properties) into a temporary directory.
func secureDir(t *testing.T, extra string) (dir, keytab string) {
	t.Helper()
	dir = t.TempDir()
	conf := filepath.Join(dir, "krb5.conf")
	keytab = filepath.Join(dir, "me.keytab")
	site := `<configuration>
  <property><name>hbase.zookeeper.quorum</name><value>zk1</value></property>
  <property><name>hbase.security.authentication</name><value>kerberos</value></property>
  <property><name>hbase.regionserver.kerberos.principal</name><value>hbase/_HOST@EXAMPLE.TEST</value></property>
  <property><name>hbase.master.kerberos.principal</name><value>hmaster/_HOST@EXAMPLE.TEST</value></property>
  <property><name>hbase.rpc.protection</name><value>privacy</value></property>
  ` + extra + `
</configuration>`
	for p, s := range map[string]string{conf: testKrb5Conf, keytab: "\x05\x02", filepath.Join(dir, "hbase-site.xml"): site} {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("KRB5_CONFIG", conf)
	return dir, keytab
}

func TestDecodeKerberosFromSiteXML(t *testing.T) {
	dir, _ := secureDir(t, "")
	t.Setenv("KRB5CCNAME", "FILE:/tmp/gobench-test-cc")
	cfg, err := decodeKV(t, KeyClasspath, dir, KeyPrincipal, "me")
	if err != nil {
		t.Fatal(err)
	}
	k := cfg.Client.Kerberos
	if k == nil {
		t.Fatal("hbase.security.authentication=kerberos in hbase-site.xml: no Kerberos")
	}
	if k.Principal != "me" || k.Keytab != "" || k.CCache != "/tmp/gobench-test-cc" ||
		k.RegionServerPrincipal != "hbase/_HOST@EXAMPLE.TEST" || k.MasterPrincipal != "hmaster/_HOST@EXAMPLE.TEST" ||
		!reflect.DeepEqual(k.QOP, []hbclient.QOP{hbclient.QOPPrivacy}) || k.Krb5Conf.LibDefaults.DefaultRealm != "EXAMPLE.TEST" {
		t.Errorf("kerberos %+v", k)
	}
	// Properties beat hbase-site.xml; hbase.client.keytab.* are read too.
	_, kt := secureDir(t, "")
	cfg, err = decodeKV(t, KeyConfDir, dir, KeyRPCProtection, "integrity, authentication",
		KeyClientKeytab, kt, KeyClientPrincipal2, "svc/host@EXAMPLE.TEST")
	if err != nil {
		t.Fatal(err)
	}
	k = cfg.Client.Kerberos
	if k.Keytab != kt || k.Principal != "svc/host@EXAMPLE.TEST" || k.CCache != "" ||
		!reflect.DeepEqual(k.QOP, []hbclient.QOP{hbclient.QOPIntegrity, hbclient.QOPAuthentication}) {
		t.Errorf("kerberos %+v", k)
	}
	// SIMPLE stays the default.
	if cfg, err := decodeKV(t); err != nil || cfg.Client.Kerberos != nil {
		t.Errorf("defaults: %v, kerberos %+v", err, cfg.Client.Kerberos)
	}
}

func TestDecodeKerberosErrors(t *testing.T) {
	dir, kt := secureDir(t, "")
	for _, tc := range []struct {
		kv   []string
		want []string // in the error text
	}{
		{[]string{KeyAuthentication, "ldap"}, []string{KeyAuthentication, `"ldap"`, "simple or kerberos"}},
		{[]string{KeyKeytab, kt}, []string{KeyKeytab, "simple", "kerberos"}},
		{[]string{KeyAuthentication, "kerberos", KeyPrincipal, "me"}, []string{KeyRSPrincipal, "hbase/_HOST@EXAMPLE.TEST"}},
		{[]string{KeyConfDir, dir, KeyRPCProtection, "secret"}, []string{KeyRPCProtection, `"secret"`, "integrity"}},
		{[]string{KeyConfDir, dir, KeyKeytab, kt}, []string{KeyKeytab, "needs a principal", KeyPrincipal}},
		{[]string{KeyConfDir, dir, KeyPrincipal, "jason", KeyKeytab, "/nonexistent/jason.keytab"},
			[]string{KeyKeytab, "jason", "/nonexistent/jason.keytab", "no such file"}},
	} {
		_, err := decodeKV(t, tc.kv...)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("decode %q: %v; want an error mentioning %q", tc.kv, err, w)
			}
		}
	}
	t.Setenv("KRB5_CONFIG", "/nonexistent/krb5.conf")
	if _, err := decodeKV(t, KeyConfDir, dir); err == nil || !strings.Contains(err.Error(), "/nonexistent/krb5.conf") {
		t.Errorf("missing krb5.conf: %v", err)
	}
	t.Setenv("KRB5_CONFIG", filepath.Join(dir, "krb5.conf"))
	t.Setenv("KRB5CCNAME", "KEYRING:persistent:1000")
	if _, err := decodeKV(t, KeyConfDir, dir); err == nil || !strings.Contains(err.Error(), "only FILE: caches") {
		t.Errorf("keyring cache: %v", err)
	}
}

func TestAccessDeniedIsForbidden(t *testing.T) {
	denied := fmt.Errorf("hbase read: %w", &hbclient.RemoteError{Class: accessDenied, Message: "Insufficient permissions for user 'nogrant'"})
	if st := drivers.Classify(mapErr(denied)); st != drivers.Forbidden {
		t.Errorf("AccessDeniedException: %v, want FORBIDDEN", st)
	}
	other := &hbclient.RemoteError{Class: "org.apache.hadoop.hbase.DoNotRetryIOException"}
	if st := drivers.Classify(mapErr(other)); st != drivers.Error {
		t.Errorf("DoNotRetryIOException: %v, want ERROR", st)
	}
	auth := &hbclient.AuthError{Principal: "me@EXAMPLE.TEST", Err: errors.New("no ticket")}
	if st := drivers.Classify(mapErr(auth)); st != drivers.Error {
		t.Errorf("AuthError: %v, want ERROR", st)
	}
}
