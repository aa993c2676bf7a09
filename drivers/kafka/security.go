package kafka

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"

	"github.com/gobench/gobench/props"
)

// Security property keys: "kafka." + the Java client property (the Kafka
// tools' property files are mapped onto them by workload/kafkaperf).
const (
	KeySecurityProtocol = "kafka.security.protocol"
	KeySASLMechanism    = "kafka.sasl.mechanism"
	KeySASLJAAS         = "kafka.sasl.jaas.config"
	KeySASLService      = "kafka.sasl.kerberos.service.name"
	KeyKrb5Conf         = "kafka.krb5.conf"
	KeyTrustLocation    = "kafka.ssl.truststore.location"
	KeyTrustPassword    = "kafka.ssl.truststore.password"
	KeyTrustType        = "kafka.ssl.truststore.type"
	KeyTrustCerts       = "kafka.ssl.truststore.certificates"
	KeyStoreLocation    = "kafka.ssl.keystore.location"
	KeyStorePassword    = "kafka.ssl.keystore.password"
	KeyStoreType        = "kafka.ssl.keystore.type"
	KeyStoreKey         = "kafka.ssl.keystore.key"
	KeyStoreChain       = "kafka.ssl.keystore.certificate.chain"
	KeyKeyPassword      = "kafka.ssl.key.password"
	KeyEndpointID       = "kafka.ssl.endpoint.identification.algorithm"
)

func securityKeys() []props.Key {
	return []props.Key{
		{Name: KeySecurityProtocol, Default: "PLAINTEXT", Usage: "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL (security.protocol)", Show: true},
		{Name: KeySASLMechanism, Default: "GSSAPI", Usage: "PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI or OAUTHBEARER (sasl.mechanism)"},
		{Name: KeySASLJAAS, Usage: "the login module as Java's clients take it: PlainLoginModule/ScramLoginModule username password, Krb5LoginModule useKeyTab keyTab principal useTicketCache ticketCache serviceName, OAuthBearerLoginModule unsecuredLoginStringClaim_sub (sasl.jaas.config; never printed)"},
		{Name: KeySASLService, Usage: "Kerberos service name of the brokers, e.g. kafka (sasl.kerberos.service.name; or serviceName in the JAAS config)"},
		{Name: KeyKrb5Conf, Default: "$KRB5_CONFIG or /etc/krb5.conf", Usage: "krb5.conf for GSSAPI (Java: -Djava.security.krb5.conf)"},
		{Name: KeyTrustLocation, Usage: "trust store file (ssl.truststore.location); unset: the system's CAs"},
		{Name: KeyTrustPassword, Usage: "trust store password (ssl.truststore.password; never printed)"},
		{Name: KeyTrustType, Default: "JKS", Usage: "JKS, PKCS12 or PEM (ssl.truststore.type)"},
		{Name: KeyTrustCerts, Usage: "trusted certificates as PEM text (ssl.truststore.certificates)"},
		{Name: KeyStoreLocation, Usage: "key store file with the client certificate and key (ssl.keystore.location)"},
		{Name: KeyStorePassword, Usage: "key store password (ssl.keystore.password; never printed)"},
		{Name: KeyStoreType, Default: "JKS", Usage: "JKS, PKCS12 or PEM (ssl.keystore.type)"},
		{Name: KeyStoreKey, Usage: "client private key as PKCS#8 PEM text (ssl.keystore.key; never printed)"},
		{Name: KeyStoreChain, Usage: "client certificate chain as PEM text (ssl.keystore.certificate.chain)"},
		{Name: KeyKeyPassword, Usage: "password of the private key in the key store (ssl.key.password; never printed)"},
		{Name: KeyEndpointID, Default: "https", Usage: "https: check the broker's host name against its certificate; empty: do not (ssl.endpoint.identification.algorithm)"},
	}
}

// Security is the decoded security configuration. Its credentials are
// unexported and never printed (String redacts).
type Security struct {
	Protocol  string // PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL
	Mechanism string // with SASL: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI, OAUTHBEARER
	TLS       *tls.Config

	user  string // PLAIN/SCRAM user, Kerberos principal, OAuth subject
	pass  string // PLAIN/SCRAM password
	token string // OAUTHBEARER token
	krb   *krbLogin
}

// krbLogin is a Krb5LoginModule's credentials source.
type krbLogin struct {
	conf       *config.Config
	confPath   string
	principal  string // as given (user@REALM or service/host@REALM)
	name       string // principal without the realm
	realm      string
	keytab     *keytab.Keytab
	keytabPath string
	ccache     *credentials.CCache
	ccachePath string
	service    string
}

// SASL reports whether the protocol authenticates with SASL.
func (s Security) SASL() bool { return strings.HasPrefix(s.Protocol, "SASL_") }

// Principal is who the client authenticates as ("" without SASL): the
// SCRAM/PLAIN user, the Kerberos principal or the OAuth subject.
func (s Security) Principal() string { return s.user }

// String describes s without any secret.
func (s Security) String() string {
	out := s.Protocol
	if s.SASL() {
		out += " " + s.Mechanism + " as " + s.user
	}
	return out
}

// GoString is String, so %#v prints no secret either.
func (s Security) GoString() string { return s.String() }

// decodeSecurity reads the security keys. Key and trust stores, keytabs,
// ticket caches and krb5.conf are read here (local files), so a bad one is
// a configuration error naming its property; nothing contacts a server.
func decodeSecurity(p *props.Decoder) Security {
	s := Security{Protocol: strings.ToUpper(strings.TrimSpace(p.String(KeySecurityProtocol, "PLAINTEXT")))}
	switch s.Protocol {
	case "PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL":
	default:
		p.Failf(KeySecurityProtocol, "unknown security protocol; allowed: PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL")
		return s
	}
	if s.Protocol == "SSL" || s.Protocol == "SASL_SSL" {
		s.TLS = decodeTLS(p)
	}
	if s.SASL() {
		decodeSASL(p, &s)
	}
	return s
}

// fileErr reports a problem with the file or value of key, naming it (and
// its source) but, for a secret key, never its value.
func fileErr(p *props.Decoder, key string, err error) {
	v, _ := p.Lookup(key)
	p.Fail(&props.Error{Key: key, Value: v.Value, Source: v.Source, Line: v.Line, Err: err})
}

func decodeTLS(p *props.Decoder) *tls.Config {
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	switch alg := strings.TrimSpace(p.String(KeyEndpointID, "https")); strings.ToLower(alg) {
	case "https":
	case "":
		// No host name check, as Java with an empty algorithm: the chain
		// is still verified against the trust store.
		c.InsecureSkipVerify = true
	default:
		p.Failf(KeyEndpointID, "unknown algorithm; allowed: https, or empty for no host name check")
	}
	trustLoc := p.String(KeyTrustLocation, "")
	trustPass := p.String(KeyTrustPassword, "")
	trustType := p.String(KeyTrustType, "JKS")
	trustInline := p.String(KeyTrustCerts, "")
	if trustLoc != "" || trustInline != "" {
		pool, err := loadTrust(trustLoc, trustPass, trustType, trustInline)
		switch {
		case err != nil && trustLoc != "":
			fileErr(p, KeyTrustLocation, fmt.Errorf("trust store (%s=%s): %w", KeyTrustType, storeType(trustType), err))
		case err != nil:
			fileErr(p, KeyTrustCerts, err)
		}
		c.RootCAs = pool
	}
	if c.InsecureSkipVerify {
		roots := c.RootCAs
		c.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error { return verifyChain(raw, roots) }
	}
	keyLoc := p.String(KeyStoreLocation, "")
	keyInline := p.String(KeyStoreKey, "")
	keyPass := p.String(KeyKeyPassword, "")
	storePass := p.String(KeyStorePassword, "")
	storeTyp := p.String(KeyStoreType, "JKS")
	chain := p.String(KeyStoreChain, "")
	if keyLoc != "" || keyInline != "" {
		cert, err := loadKeyPair(keyLoc, storePass, storeTyp, keyPass, keyInline, chain)
		switch {
		case err != nil && keyLoc != "":
			fileErr(p, KeyStoreLocation, fmt.Errorf("key store (%s=%s): %w", KeyStoreType, storeType(storeTyp), err))
		case err != nil:
			fileErr(p, KeyStoreKey, err)
		default:
			c.Certificates = []tls.Certificate{cert}
		}
	}
	return c
}

// verifyChain checks the broker's chain against roots (nil: the system's)
// without a host name, for an empty ssl.endpoint.identification.algorithm.
func verifyChain(raw [][]byte, roots *x509.CertPool) error {
	if len(raw) == 0 {
		return errors.New("broker sent no certificate")
	}
	certs := make([]*x509.Certificate, len(raw))
	for i, r := range raw {
		c, err := x509.ParseCertificate(r)
		if err != nil {
			return fmt.Errorf("broker certificate: %w", err)
		}
		certs[i] = c
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	_, err := certs[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	return err
}

var mechanisms = []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "GSSAPI", "OAUTHBEARER"}

func decodeSASL(p *props.Decoder, s *Security) {
	s.Mechanism = strings.TrimSpace(p.String(KeySASLMechanism, "GSSAPI"))
	if !contains(mechanisms, s.Mechanism) {
		p.Failf(KeySASLMechanism, "unknown SASL mechanism; allowed: %s", strings.Join(mechanisms, ", "))
		return
	}
	raw, set := p.Lookup(KeySASLJAAS)
	if !set || strings.TrimSpace(raw.Value) == "" {
		p.Failf(KeySASLJAAS, "required with %s=%s: gobench reads no static JAAS file (java.security.auth.login.config); give the login module here (see the README, Secured clusters)", KeySecurityProtocol, s.Protocol)
		return
	}
	j, err := parseJAAS(raw.Value)
	if err != nil {
		p.Failf(KeySASLJAAS, "%v", err)
		return
	}
	service := p.String(KeySASLService, "")
	krb5Path := p.String(KeyKrb5Conf, "")
	switch s.Mechanism {
	case "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512":
		if j.module != plainModule && j.module != scramModule {
			p.Failf(KeySASLJAAS, "login module %s cannot log in with %s; want %s or %s", j.module, s.Mechanism, scramModule, plainModule)
			return
		}
		s.user, s.pass = j.opts["username"], j.opts["password"]
		if s.user == "" || s.pass == "" {
			p.Failf(KeySASLJAAS, "login module %s needs the options username and password", j.module)
		}
	case "OAUTHBEARER":
		if j.module != oauthModule {
			p.Failf(KeySASLJAAS, "login module %s cannot log in with OAUTHBEARER; want %s", j.module, oauthModule)
			return
		}
		sub := j.opts["unsecuredLoginStringClaim_sub"]
		if sub == "" {
			p.Failf(KeySASLJAAS, "OAuthBearerLoginModule: gobench supports the unsecured tokens of Java's default login callback only; set unsecuredLoginStringClaim_sub")
			return
		}
		s.user, s.token = sub, unsecuredJWT(sub, j.opts["unsecuredLoginLifetimeSeconds"])
	case "GSSAPI":
		if j.module != krb5Module && !strings.HasPrefix(j.module, ibmKrb5Prefx) {
			p.Failf(KeySASLJAAS, "login module %s cannot log in with GSSAPI; want %s", j.module, krb5Module)
			return
		}
		if service == "" {
			service = j.opts["serviceName"]
		}
		if service == "" {
			p.Failf(KeySASLService, "required with GSSAPI: the brokers' Kerberos service name (the first part of their principal, e.g. kafka), here or as serviceName in %s", KeySASLJAAS)
			return
		}
		k, err := krb5Login(j, krb5Path)
		if err != nil {
			key := KeySASLJAAS
			if errors.Is(err, errKrb5Conf) {
				key = KeyKrb5Conf
			}
			p.Failf(key, "%v", err)
			return
		}
		k.service = service
		s.krb, s.user = k, k.principal
	}
}

var errKrb5Conf = errors.New("krb5.conf")

// krb5Login reads a Krb5LoginModule's options as Java does: the ticket
// cache first with useTicketCache=true (ticketCache, else KRB5CCNAME, else
// /tmp/krb5cc_UID), then the keytab with useKeyTab=true (keyTab and
// principal required).
func krb5Login(j jaas, confPath string) (*krbLogin, error) {
	if confPath == "" {
		// The one read of the environment below cmd (with KRB5CCNAME
		// below): Kerberos names its files there for every client (MIT's
		// tools, Java's Krb5LoginModule), and kinit's user expects it.
		confPath = os.Getenv("KRB5_CONFIG")
	}
	if confPath == "" {
		confPath = "/etc/krb5.conf"
	}
	conf, err := config.Load(confPath)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v (set %s, KRB5_CONFIG or -Djava.security.krb5.conf's file)", errKrb5Conf, confPath, err, KeyKrb5Conf)
	}
	k := &krbLogin{conf: conf, confPath: confPath, principal: j.opts["principal"]}
	useCache, useKeytab := j.boolOpt("useTicketCache"), j.boolOpt("useKeyTab")
	if !useCache && !useKeytab {
		return nil, errors.New("Krb5LoginModule: set useKeyTab=true with keyTab and principal, or useTicketCache=true (gobench cannot prompt for a password)")
	}
	var cacheErr error
	if useCache {
		path := j.opts["ticketCache"]
		if path == "" {
			path = strings.TrimPrefix(os.Getenv("KRB5CCNAME"), "FILE:")
		}
		if path == "" {
			path = filepath.Join(os.TempDir(), fmt.Sprintf("krb5cc_%d", os.Getuid()))
		}
		k.ccachePath = path
		cc, err := credentials.LoadCCache(path)
		switch {
		case err != nil:
			cacheErr = fmt.Errorf("ticket cache %s: %v (run kinit)", path, err)
		case k.principal != "" && !samePrincipal(cc.DefaultPrincipal.PrincipalName.PrincipalNameString()+"@"+cc.DefaultPrincipal.Realm, k.principal, conf):
			cacheErr = fmt.Errorf("ticket cache %s holds the tickets of %s@%s, not of principal %s", path,
				cc.DefaultPrincipal.PrincipalName.PrincipalNameString(), cc.DefaultPrincipal.Realm, k.principal)
		default:
			k.ccache = cc
			k.principal = cc.DefaultPrincipal.PrincipalName.PrincipalNameString() + "@" + cc.DefaultPrincipal.Realm
		}
		if cacheErr == nil || !useKeytab {
			if cacheErr != nil {
				return nil, fmt.Errorf("Krb5LoginModule: %v", cacheErr)
			}
			k.name, k.realm = splitPrincipal(k.principal, conf)
			return k, nil
		}
		k.ccachePath = ""
	}
	k.keytabPath = j.opts["keyTab"]
	if k.keytabPath == "" || k.principal == "" {
		return nil, errors.New("Krb5LoginModule with useKeyTab=true: set keyTab and principal")
	}
	k.name, k.realm = splitPrincipal(k.principal, conf)
	kt, err := keytab.Load(k.keytabPath)
	if err != nil {
		return nil, fmt.Errorf("Krb5LoginModule: principal %s: keytab %s: %v", k.principal, k.keytabPath, err)
	}
	k.keytab = kt
	return k, nil
}

// splitPrincipal splits name@REALM; without a realm it is krb5.conf's
// default_realm.
func splitPrincipal(p string, conf *config.Config) (name, realm string) {
	if i := strings.LastIndexByte(p, '@'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return p, conf.LibDefaults.DefaultRealm
}

func samePrincipal(a, b string, conf *config.Config) bool {
	an, ar := splitPrincipal(a, conf)
	bn, br := splitPrincipal(b, conf)
	return an == bn && ar == br
}

// unsecuredJWT is the token of Java's OAuthBearerUnsecuredLoginCallbackHandler:
// an unsigned JWS (alg none) with sub, iat and exp (lifetime 3600 s unless
// unsecuredLoginLifetimeSeconds says otherwise).
func unsecuredJWT(sub, lifetime string) string {
	secs := int64(3600)
	if _, err := fmt.Sscan(lifetime, &secs); err != nil || secs <= 0 {
		secs = 3600
	}
	now := time.Now().Unix()
	head, _ := json.Marshal(map[string]string{"alg": "none"})
	body, _ := json.Marshal(map[string]any{"sub": sub, "iat": now, "exp": now + secs})
	enc := base64.RawURLEncoding
	return enc.EncodeToString(head) + "." + enc.EncodeToString(body) + "."
}

// UnusedSecurity names (with where each was set, never the value) the
// sasl.* keys set without a SASL security.protocol and the ssl.* keys set
// without SSL: Java ignores them silently, which hides a forgotten
// security.protocol until the broker drops the connection.
func UnusedSecurity(set *props.Set) []string {
	proto := "PLAINTEXT"
	if v, ok := set.Get(KeySecurityProtocol); ok {
		proto = strings.ToUpper(strings.TrimSpace(v.Value))
	}
	sasl := strings.HasPrefix(proto, "SASL_")
	ssl := proto == "SSL" || proto == "SASL_SSL"
	var out []string
	for _, k := range set.Keys() {
		if (!sasl && (strings.HasPrefix(k, "kafka.sasl.") || k == KeyKrb5Conf)) || (!ssl && strings.HasPrefix(k, "kafka.ssl.")) {
			v, _ := set.Get(k)
			out = append(out, fmt.Sprintf("%s (%s)", strings.TrimPrefix(k, "kafka."), v.Where()))
		}
	}
	return out
}
