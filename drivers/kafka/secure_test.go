//go:build secure

package kafka

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/testenv/secure"
)

// secureDecoder reads a testenv Kafka client file (Java names) onto the
// driver's keys, plus extra k, v pairs.
func secureDecoder(t *testing.T, file string, kv ...string) *props.Decoder {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vals, err := props.Parse(f, file)
	if err != nil {
		t.Fatal(err)
	}
	var l props.Layers
	for _, v := range vals {
		switch v.Key {
		case "bootstrap.servers":
			v.Key = KeyBrokers
		default:
			v.Key = "kafka." + v.Key
		}
		l.Add(props.LayerFile, v)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		l.Add(props.LayerOverride, props.Value{Key: kv[i], Value: kv[i+1], Source: "-p"})
	}
	return props.NewDecoder(l.Set())
}

func secureEnv(t *testing.T) *secure.Env {
	t.Helper()
	e, err := secure.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Check("kafka"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KRB5_CONFIG", e.Krb5Conf()) // as eval "$(testenv/secure.sh env)" sets it
	return e
}

func secureDB(t *testing.T, d *props.Decoder) *DB {
	t.Helper()
	cfg, err := Decode(d)
	if err != nil {
		t.Fatal(err)
	}
	db := NewDB(cfg, drivers.Schema{})
	t.Cleanup(func() { db.Close() })
	return db
}

// TestSecureKafkaEveryClientMode: jason logs in and produces one record with
// every client file of the testenv (SCRAM-SHA-512/256, PLAIN, GSSAPI with a
// keytab, SASL_PLAINTEXT, SSL client certificates in JKS, PKCS12 and PEM with
// an encrypted key), and with kinit's ticket cache (useTicketCache); nogrant
// logs in and every produce is FORBIDDEN; no error holds a secret.
func TestSecureKafkaEveryClientMode(t *testing.T) {
	e := secureEnv(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	topic := secure.KafkaPrefix + "-modes-" + time.Now().Format("150405.000")
	if out, err := e.KafkaAdmin(ctx, "create "+topic+" 1"); err != nil {
		t.Fatalf("create %s: %v %s", topic, err, out)
	}
	t.Cleanup(func() { e.KafkaAdmin(context.Background(), "delete "+topic) })
	var outs []string
	produce := func(db *DB) error {
		conn, err := db.Open(ctx)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		done := make(chan error, 1)
		if err := conn.(drivers.Producer).Produce(ctx, topic, []byte("k"), []byte("v"), 0, func(_ int64, err error) { done <- err }); err != nil {
			return err
		}
		return <-done
	}
	for _, mode := range secure.KafkaModes {
		t.Run(mode, func(t *testing.T) {
			db := secureDB(t, secureDecoder(t, e.KafkaProps(secure.Jason, mode)))
			if err := db.Prepare(ctx); err != nil {
				t.Fatalf("prepare: %v", err)
			}
			if err := produce(db); err != nil {
				t.Errorf("produce: %v", err)
			}
			ng := secureDB(t, secureDecoder(t, e.KafkaProps(secure.NoGrant, mode)))
			if err := ng.Prepare(ctx); err != nil {
				t.Fatalf("nogrant prepare (it may log in): %v", err)
			}
			err := produce(ng)
			if st := drivers.Classify(err); st != drivers.Forbidden {
				t.Errorf("nogrant produce: %v (%v), want FORBIDDEN", st, err)
			}
			if err != nil {
				outs = append(outs, err.Error())
			}
		})
	}
	t.Run("ticket-cache", func(t *testing.T) {
		cc, err := e.Kinit(ctx, secure.Jason)
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("KRB5CCNAME", cc)
		db := secureDB(t, secureDecoder(t, e.KafkaProps(secure.Jason, secure.KafkaGSSAPI),
			KeySASLJAAS, `com.sun.security.auth.module.Krb5LoginModule required useTicketCache=true;`, KeyKrb5Conf, e.Krb5Conf()))
		if got := db.cfg.Security.Principal(); got != secure.Principal(secure.Jason) {
			t.Errorf("principal from the cache %q, want %q", got, secure.Principal(secure.Jason))
		}
		if err := db.Prepare(ctx); err != nil {
			t.Fatalf("prepare: %v", err)
		}
		if err := produce(db); err != nil {
			t.Errorf("produce: %v", err)
		}
	})
	noSecret(t, e, outs...)
}

// TestSecureKafkaLoginRefusedBeforeTheRun: a wrong SCRAM or PLAIN password,
// an unknown Kerberos principal and an untrusted CA fail in Prepare with
// the user and the cause, never the password.
func TestSecureKafkaLoginRefusedBeforeTheRun(t *testing.T) {
	e := secureEnv(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	const badPW = "Wrong-Password-42"
	cases := []struct {
		name, mode string
		kv         []string
		want       []string
	}{
		{"scram", secure.KafkaSCRAM, []string{KeySASLJAAS, `org.apache.kafka.common.security.scram.ScramLoginModule required username="jason" password="` + badPW + `";`},
			[]string{"authentication of jason (SASL SCRAM-SHA-512)", "failed", "invalid credentials"}},
		{"plain", secure.KafkaPLAIN, []string{KeySASLJAAS, `org.apache.kafka.common.security.plain.PlainLoginModule required username="jason" password="` + badPW + `";`},
			[]string{"authentication of jason (SASL PLAIN)", "failed"}},
		{"unknown-principal", secure.KafkaGSSAPI, []string{KeySASLJAAS, `com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true keyTab="` +
			e.Keytab(secure.Jason) + `" principal="nobody@GOBENCH.TEST";`, KeyKrb5Conf, e.Krb5Conf()},
			[]string{"authentication of nobody@GOBENCH.TEST (SASL GSSAPI)", "keytab"}},
		{"untrusted-ca", secure.KafkaSCRAM, []string{KeyTrustLocation, "testdata/tls/truststore.jks", KeyTrustPassword, "test-store-pw"},
			[]string{"TLS (SASL_SSL) with " + secure.KafkaSASLSSL, "certificate"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := secureDB(t, secureDecoder(t, e.KafkaProps(secure.Jason, c.mode), c.kv...))
			err := db.Prepare(ctx)
			if err == nil {
				t.Fatal("prepare: no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q: %v", w, err)
				}
			}
			if c.name != "untrusted-ca" && !errors.As(err, new(*AuthError)) {
				t.Errorf("not an AuthError: %v", err)
			}
			if strings.Contains(err.Error(), badPW) {
				t.Errorf("error holds the password: %v", err)
			}
			noSecret(t, e, err.Error())
		})
	}
}

func noSecret(t *testing.T, e *secure.Env, outs ...string) {
	t.Helper()
	secrets := e.Secrets()
	if len(secrets) < 3 {
		t.Fatalf("only %d secrets in %s", len(secrets), e.Dir())
	}
	for i, o := range outs {
		for _, s := range secrets {
			if strings.Contains(o, s) {
				t.Errorf("output %d holds a secret of %s/secrets", i, e.Dir())
			}
		}
		if strings.Contains(o, "LoginModule required") {
			t.Errorf("output %d holds a JAAS configuration", i)
		}
	}
}
