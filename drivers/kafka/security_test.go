package kafka

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

// testdata/tls was made with openssl 3.0 and Java 17's keytool (see
// testdata/tls/README): a CA, a client certificate and its P-256 key, the
// key encrypted three ways, PKCS12 and JKS stores; every password is
// storePW.
const storePW = "test-store-pw"

func tlsFile(name string) string { return filepath.Join("testdata", "tls", name) }

func TestParseJAASAsJava(t *testing.T) {
	cases := []struct {
		in     string
		module string
		opts   map[string]string
	}{
		{`org.apache.kafka.common.security.scram.ScramLoginModule required username="jason" password="p@ss w=rd\"x";`,
			scramModule, map[string]string{"username": "jason", "password": `p@ss w=rd"x`}},
		{`com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true useTicketCache=false keyTab="/tmp/k/jason.keytab" principal="jason@GOBENCH.TEST";`,
			krb5Module, map[string]string{"useKeyTab": "true", "storeKey": "true", "useTicketCache": "false", "keyTab": "/tmp/k/jason.keytab", "principal": "jason@GOBENCH.TEST"}},
		{"// a comment\n org.apache.kafka.common.security.plain.PlainLoginModule /* c */ REQUIRED\n username=alice password=s3cr3t_-$.x ;  ",
			plainModule, map[string]string{"username": "alice", "password": "s3cr3t_-$.x"}},
	}
	for _, c := range cases {
		j, err := parseJAAS(c.in)
		if err != nil {
			t.Errorf("parse %q: %v", c.in, err)
			continue
		}
		if j.module != c.module || len(j.opts) != len(c.opts) {
			t.Errorf("parse %q: module %s, options %v", c.in, j.module, j.opts)
		}
		for k, v := range c.opts {
			if j.opts[k] != v {
				t.Errorf("parse %q: option %s = %q, want %q", c.in, k, j.opts[k], v)
			}
		}
	}
	const secret = "TOPSECRETPW"
	for _, bad := range []string{
		`x.Y required password="` + secret + `"`,                                          // no ';'
		`x.Y required password="` + secret + `"; a.B required password="` + secret + `";`, // two modules
		`x.Y mandatory password="` + secret + `";`,                                        // bad flag
		`x.Y required keyTab=/tmp/` + secret + `;`,                                        // unquoted '/'
		`x.Y required password="` + secret,                                                // unterminated
		`"` + secret + `" required;`,
	} {
		_, err := parseJAAS(bad)
		if err == nil {
			t.Errorf("parse %q: no error", bad)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("parse error holds the secret: %v", err)
		}
	}
}

func TestDecryptPKCS8FromOpenSSL(t *testing.T) {
	want := readKey(t, "client.key")
	for _, f := range []string{"client.pbes2.key", "client.pbes2-des3.key", "client.pbe-sha1-3des.key"} {
		b, _ := pem.Decode(mustRead(t, tlsFile(f)))
		k, err := decryptPKCS8(b.Bytes, storePW)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if !k.(*ecdsa.PrivateKey).Equal(want) {
			t.Errorf("%s: decrypted another key", f)
		}
		if _, err := decryptPKCS8(b.Bytes, storePW+"x"); !errors.Is(err, errKeyPassword) {
			t.Errorf("%s with a wrong password: %v, want %v", f, err, errKeyPassword)
		}
	}
}

func TestStoresJKSPKCS12PEM(t *testing.T) {
	ca, err := pemCerts(mustRead(t, tlsFile("ca.pem")))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, pass, typ string }{
		{"truststore.jks", storePW, "JKS"}, {"truststore.p12", storePW, "pkcs12"}, {"ca.pem", "", "PEM"},
	} {
		pool, err := loadTrust(tlsFile(c.file), c.pass, c.typ, "")
		if err != nil {
			t.Errorf("trust %s: %v", c.file, err)
			continue
		}
		if !pool.Equal(poolOf(ca...)) {
			t.Errorf("trust %s: pool is not the CA", c.file)
		}
		if c.pass != "" {
			_, err := loadTrust(tlsFile(c.file), "wrong-password", c.typ, "")
			if err == nil || !strings.Contains(err.Error(), "wrong password") || strings.Contains(err.Error(), "wrong-password") {
				t.Errorf("trust %s with a wrong password: %v", c.file, err)
			}
		}
	}
	want := readKey(t, "client.key")
	for _, c := range []struct{ file, pass, typ, keyPass string }{
		{"client.jks", storePW, "JKS", ""}, {"client.jks", storePW, "JKS", storePW}, {"client.p12", storePW, "PKCS12", ""},
		{"client.keystore.pem", "", "PEM", storePW},
	} {
		cert, err := loadKeyPair(tlsFile(c.file), c.pass, c.typ, c.keyPass, "", "")
		if err != nil {
			t.Errorf("key store %s: %v", c.file, err)
			continue
		}
		if !cert.PrivateKey.(*ecdsa.PrivateKey).Equal(want) || len(cert.Certificate) == 0 {
			t.Errorf("key store %s: wrong key or no certificate", c.file)
		}
		leaf, _ := x509.ParseCertificate(cert.Certificate[0])
		if leaf == nil || leaf.Subject.CommonName != "client" {
			t.Errorf("key store %s: leaf %v", c.file, leaf)
		}
	}
	if _, err := loadKeyPair(tlsFile("client.keystore.pem"), "", "PEM", "", "", ""); err == nil || !strings.Contains(err.Error(), "ssl.key.password") {
		t.Errorf("encrypted PEM key without ssl.key.password: %v", err)
	}
	if _, err := loadKeyPair(tlsFile("client.jks"), storePW, "JKS", "bad-key-pw", "", ""); err == nil || strings.Contains(err.Error(), "bad-key-pw") {
		t.Errorf("JKS with a wrong key password: %v", err)
	}
	// Inline PEM (ssl.keystore.key + ssl.keystore.certificate.chain).
	cert, err := loadKeyPair("", "", "PEM", "", string(mustRead(t, tlsFile("client.key"))), string(mustRead(t, tlsFile("client.pem"))))
	if err != nil || !cert.PrivateKey.(*ecdsa.PrivateKey).Equal(want) {
		t.Errorf("inline PEM: %v", err)
	}
}

// TestDecodeSecurityErrorsNameThePropertyNotTheSecret: every bad security
// value is a configuration error naming its key; no error holds a password
// or the JAAS text.
func TestDecodeSecurityErrorsNameThePropertyNotTheSecret(t *testing.T) {
	const pw = "Sup3rSecretPw"
	scram := `org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="` + pw + `";`
	kt := filepath.Join(t.TempDir(), "none.keytab")
	krb5 := filepath.Join(t.TempDir(), "krb5.conf")
	if err := os.WriteFile(krb5, []byte("[libdefaults]\n default_realm = EX.TEST\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		kv   []string
		want []string
	}{
		{[]string{KeySecurityProtocol, "SASL_TLS"}, []string{KeySecurityProtocol, "allowed: PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL"}},
		{[]string{KeySecurityProtocol, "sasl_plaintext", KeySASLMechanism, "SCRAM-SHA-1", KeySASLJAAS, scram}, []string{KeySASLMechanism, "SCRAM-SHA-512"}},
		{[]string{KeySecurityProtocol, "SASL_PLAINTEXT", KeySASLMechanism, "PLAIN"}, []string{KeySASLJAAS, "required"}},
		{[]string{KeySecurityProtocol, "SASL_PLAINTEXT", KeySASLMechanism, "PLAIN", KeySASLJAAS, strings.TrimSuffix(scram, ";")}, []string{KeySASLJAAS, "expected ';'"}},
		{[]string{KeySecurityProtocol, "SASL_PLAINTEXT", KeySASLMechanism, "GSSAPI", KeySASLJAAS, scram}, []string{KeySASLJAAS, "cannot log in with GSSAPI"}},
		{[]string{KeySecurityProtocol, "SASL_PLAINTEXT", KeySASLMechanism, "GSSAPI", KeyKrb5Conf, krb5,
			KeySASLJAAS, `com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true keyTab="` + kt + `" principal="bob";`},
			[]string{KeySASLService, "required with GSSAPI"}},
		{[]string{KeySecurityProtocol, "SASL_PLAINTEXT", KeySASLMechanism, "GSSAPI", KeyKrb5Conf, krb5, KeySASLService, "kafka",
			KeySASLJAAS, `com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true keyTab="` + kt + `" principal="bob";`},
			[]string{KeySASLJAAS, "principal bob", kt}},
		{[]string{KeySecurityProtocol, "SASL_PLAINTEXT", KeySASLMechanism, "GSSAPI", KeyKrb5Conf, krb5, KeySASLService, "kafka",
			KeySASLJAAS, `com.sun.security.auth.module.Krb5LoginModule required useTicketCache=true ticketCache="` + kt + `";`},
			[]string{KeySASLJAAS, "ticket cache " + kt, "kinit"}},
		{[]string{KeySecurityProtocol, "SSL", KeyTrustLocation, tlsFile("truststore.jks"), KeyTrustPassword, pw},
			[]string{KeyTrustLocation, "wrong password"}},
		{[]string{KeySecurityProtocol, "SSL", KeyTrustLocation, tlsFile("nothere.jks"), KeyTrustPassword, pw},
			[]string{KeyTrustLocation, "no such file"}},
		{[]string{KeySecurityProtocol, "SSL", KeyStoreLocation, tlsFile("client.p12"), KeyStoreType, "PKCS12", KeyStorePassword, pw},
			[]string{KeyStoreLocation, "wrong password"}},
		{[]string{KeySecurityProtocol, "SSL", KeyStoreLocation, tlsFile("client.p12"), KeyStoreType, "BKS", KeyStorePassword, pw},
			[]string{KeyStoreLocation, `"BKS" not supported`}},
		{[]string{KeySecurityProtocol, "SSL", KeyEndpointID, "http"}, []string{KeyEndpointID, "allowed: https"}},
	}
	for _, c := range cases {
		_, err := Decode(decoder(c.kv...))
		if err == nil {
			t.Errorf("%v: no error", c.kv)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error does not say %q:\n%v", c.kv, w, err)
			}
		}
		if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), "ScramLoginModule required") {
			t.Errorf("%v: error holds a secret:\n%v", c.kv, err)
		}
	}
}

func TestDecodeSecurityValid(t *testing.T) {
	scram := `org.apache.kafka.common.security.scram.ScramLoginModule required username="jason" password="pw-123456";`
	cfg, err := Decode(decoder(KeySecurityProtocol, "sasl_ssl", KeySASLMechanism, "SCRAM-SHA-512", KeySASLJAAS, scram,
		KeyTrustLocation, tlsFile("truststore.p12"), KeyTrustType, "PKCS12", KeyTrustPassword, storePW, KeyEndpointID, ""))
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Security
	if s.Protocol != "SASL_SSL" || s.Mechanism != "SCRAM-SHA-512" || s.Principal() != "jason" || s.TLS == nil ||
		s.TLS.RootCAs == nil || !s.TLS.InsecureSkipVerify || s.TLS.VerifyPeerCertificate == nil {
		t.Errorf("security %v, TLS %+v", s, s.TLS)
	}
	for _, out := range []string{s.String(), fmt.Sprintf("%v %+v %#v", cfg, cfg, cfg)} {
		if strings.Contains(out, "pw-123456") || strings.Contains(out, "ScramLoginModule") {
			t.Errorf("printing the config shows a secret: %s", out)
		}
	}
	if len(DefaultConfig().Security.Protocol) == 0 {
		t.Error("default protocol unset")
	}
}

// TestEveryKafkaSecretKeyIsRedacted: the keys holding secrets are secret
// to props (and so redacted in every output), the others are not.
func TestEveryKafkaSecretKeyIsRedacted(t *testing.T) {
	secret := map[string]bool{KeySASLJAAS: true, KeyTrustPassword: true, KeyStorePassword: true, KeyKeyPassword: true, KeyStoreKey: true}
	for _, k := range securityKeys() {
		if props.IsSecret(k.Name) != secret[k.Name] {
			t.Errorf("props.IsSecret(%s) = %v", k.Name, props.IsSecret(k.Name))
		}
	}
}

func TestAuthorizationFailuresAreForbidden(t *testing.T) {
	for _, e := range []error{kerr.TopicAuthorizationFailed, kerr.GroupAuthorizationFailed, kerr.ClusterAuthorizationFailed,
		kerr.TransactionalIDAuthorizationFailed, fmt.Errorf("produce: %w", kerr.TopicAuthorizationFailed)} {
		if st := drivers.Classify(classify(e)); st != drivers.Forbidden {
			t.Errorf("%v: %v, want FORBIDDEN", e, st)
		}
	}
	if st := drivers.Classify(classify(kerr.UnknownServerError)); st == drivers.Forbidden {
		t.Errorf("UnknownServerError is %v", st)
	}
}

func TestUnsecuredJWT(t *testing.T) {
	tok := unsecuredJWT("alice", "60")
	parts := strings.Split(tok, ".")
	if len(parts) != 3 || parts[2] != "" {
		t.Fatalf("token %q: want header.payload.", tok)
	}
}

func mustRead(t *testing.T, f string) []byte {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readKey(t *testing.T, f string) *ecdsa.PrivateKey {
	t.Helper()
	b, _ := pem.Decode(mustRead(t, tlsFile(f)))
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return k.(*ecdsa.PrivateKey)
}

func poolOf(certs ...*x509.Certificate) *x509.CertPool {
	p := x509.NewCertPool()
	for _, c := range certs {
		p.AddCert(c)
	}
	return p
}
