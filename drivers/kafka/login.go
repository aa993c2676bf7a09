package kafka

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/kerberos"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/gobench/gobench/drivers"
)

// securityOpts are the TLS and SASL options of every client of the DB.
func (db *DB) securityOpts() []kgo.Opt {
	s := db.cfg.Security
	var opts []kgo.Opt
	if s.TLS != nil {
		opts = append(opts, kgo.DialTLSConfig(s.TLS.Clone()))
	}
	if m := db.saslMechanism(); m != nil {
		opts = append(opts, kgo.SASL(m))
	}
	return opts
}

// saslMechanism returns the franz-go mechanism of the configuration (nil
// without SASL). The Kerberos client is the DB's, logged in by [DB.login].
func (db *DB) saslMechanism() sasl.Mechanism {
	s := db.cfg.Security
	if !s.SASL() {
		return nil
	}
	switch s.Mechanism {
	case "PLAIN":
		return plain.Auth{User: s.user, Pass: s.pass}.AsMechanism()
	case "SCRAM-SHA-256":
		return scram.Auth{User: s.user, Pass: s.pass}.AsSha256Mechanism()
	case "SCRAM-SHA-512":
		return scram.Auth{User: s.user, Pass: s.pass}.AsSha512Mechanism()
	case "OAUTHBEARER":
		return oauth.Auth{Token: s.token}.AsMechanism()
	case "GSSAPI":
		return kerberos.Kerberos(func(context.Context) (kerberos.Auth, error) {
			cl, err := db.krbClient()
			if err != nil {
				return kerberos.Auth{}, err
			}
			return kerberos.Auth{Client: cl, Service: s.krb.service, PersistAfterAuth: true}, nil
		})
	}
	return nil
}

// krbClient returns the DB's Kerberos client, logging in on first use.
func (db *DB) krbClient() (*krbclient.Client, error) {
	db.krbMu.Lock()
	defer db.krbMu.Unlock()
	if db.krb != nil {
		return db.krb, nil
	}
	k := db.cfg.Security.krb
	var cl *krbclient.Client
	if k.ccache != nil {
		for _, c := range k.ccache.GetEntries() {
			if len(c.Server.PrincipalName.NameString) > 0 && c.Server.PrincipalName.NameString[0] == "krbtgt" && time.Now().After(c.EndTime) {
				return nil, &AuthError{Principal: k.principal, Mechanism: "GSSAPI",
					Err: fmt.Errorf("the ticket-granting ticket in ticket cache %s expired at %s; run kinit", k.ccachePath, c.EndTime.Format(time.RFC3339))}
			}
		}
		c, err := krbclient.NewFromCCache(k.ccache, k.conf, krbclient.DisablePAFXFAST(true))
		if err != nil {
			return nil, &AuthError{Principal: k.principal, Mechanism: "GSSAPI", Err: fmt.Errorf("ticket cache %s: %w; run kinit", k.ccachePath, err)}
		}
		cl = c
	} else {
		cl = krbclient.NewWithKeytab(k.name, k.realm, k.keytab, k.conf, krbclient.DisablePAFXFAST(true))
		if err := cl.Login(); err != nil {
			return nil, &AuthError{Principal: k.principal, Mechanism: "GSSAPI", Err: fmt.Errorf("Kerberos login with keytab %s (krb5.conf %s): %s", k.keytabPath, k.confPath, krbMessage(err))}
		}
	}
	db.krb = cl
	return cl, nil
}

// krbMessage shortens gokrb5's nested error text to its KRB error.
func krbMessage(err error) string {
	s := err.Error()
	if i := strings.Index(s, "KRB Error: "); i >= 0 {
		return s[i:]
	}
	return s
}

// AuthError is an authentication failure at start: the principal (user)
// and the cause, never a password.
type AuthError struct {
	Principal string
	Mechanism string
	Broker    string
	Err       error
}

func (e *AuthError) Error() string {
	where := ""
	if e.Broker != "" {
		where = " at " + e.Broker
	}
	return fmt.Sprintf("kafka: authentication of %s (SASL %s)%s failed: %v", e.Principal, e.Mechanism, where, e.Err)
}

func (e *AuthError) Unwrap() error { return e.Err }

// login proves, before the run, that the security configuration works:
// the Kerberos login and a service ticket of the first broker (GSSAPI),
// then one request through TLS and SASL. It does nothing for PLAINTEXT.
func (db *DB) login(ctx context.Context, cl *kgo.Client) error {
	s := db.cfg.Security
	if s.Protocol == "PLAINTEXT" || s.Protocol == "" {
		return nil
	}
	broker := db.cfg.Brokers[0]
	if s.Mechanism == "GSSAPI" && s.SASL() {
		kc, err := db.krbClient()
		if err != nil {
			return err
		}
		host, _, err := net.SplitHostPort(broker)
		if err != nil {
			host = broker
		}
		spn := s.krb.service + "/" + host
		if _, _, err := kc.GetServiceTicket(spn); err != nil {
			return &AuthError{Principal: s.user, Mechanism: s.Mechanism, Broker: broker,
				Err: fmt.Errorf("no service ticket for %s: %s", spn, krbMessage(err))}
		}
	}
	pctx, cancel := context.WithTimeout(ctx, db.cfg.Timeout)
	defer cancel()
	err := cl.Ping(pctx)
	if err == nil {
		return nil
	}
	var tlsErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	switch {
	case s.SASL() && (errors.Is(err, kerr.SaslAuthenticationFailed) || errors.Is(err, kerr.IllegalSaslState) ||
		errors.Is(err, kerr.UnsupportedSaslMechanism)):
		return &AuthError{Principal: s.user, Mechanism: s.Mechanism, Broker: broker, Err: err}
	case errors.As(err, &tlsErr), errors.As(err, &recErr), strings.Contains(err.Error(), "tls:"), strings.Contains(err.Error(), "x509:"):
		return fmt.Errorf("kafka: TLS (%s) with %s failed: %w", s.Protocol, broker, err)
	case errors.As(err, new(*AuthError)):
		return err
	}
	return fmt.Errorf("kafka: connect (%s) to %s: %w: %w", s, broker, err, drivers.ErrUnavailable)
}
