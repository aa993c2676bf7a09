package secure

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Realm and KDC.
const (
	Realm   = "GOBENCH.TEST"
	KDCAddr = "127.0.0.1:28088" // TCP (krb5.conf sets udp_preference_limit 1)
	// Host is the host part of every service principal (SERVICE/localhost@GOBENCH.TEST)
	// and of every client address below.
	Host = "localhost"
)

// Client addresses (the servers bind 127.0.0.1 and are named localhost, as in their
// principals and the TLS certificate).
const (
	NameNodeAddr       = "localhost:28000"
	DataNodeAddr       = "127.0.0.1:28010" // as the NameNode hands it out
	ZooKeeperAddr      = "localhost:28181"
	MasterAddr         = "localhost:28600"
	RegionServerAddr   = "localhost:28620"
	KafkaSASLSSL       = "localhost:28092"
	KafkaSASLPlaintext = "localhost:28091"
	KafkaSSL           = "localhost:28093"
)

// What the admin steps at start-up set up.
const (
	// Namespace is field report 004's namespace; User Jason has RWXCA on it.
	Namespace = "ycsb_hbase_ns"
	// KafkaPrefix: Jason may do everything on topics, groups and transactional ids
	// starting with it.
	KafkaPrefix = "gobench"
	Jason       = "jason"   // granted everywhere
	NoGrant     = "nogrant" // a valid principal and SCRAM user without any grant
)

// Users are the test users (each a principal USER@GOBENCH.TEST with a keytab and a
// password, which is also its SCRAM and PLAIN password in Kafka).
var Users = []string{Jason, NoGrant}

// Services are the service principals' first components (SERVICE/localhost@GOBENCH.TEST).
var Services = []string{"nn", "dn", "HTTP", "hbase", "zookeeper", "kafka"}

// Kafka client property file modes (conf/kafka-USER-MODE.properties).
const (
	KafkaSCRAM          = "scram"           // SASL_SSL, SCRAM-SHA-512
	KafkaSCRAM256       = "scram256"        // SASL_SSL, SCRAM-SHA-256
	KafkaPLAIN          = "plain"           // SASL_SSL, PLAIN
	KafkaGSSAPI         = "gssapi"          // SASL_SSL, GSSAPI with the user's keytab
	KafkaPlaintextSCRAM = "plaintext-scram" // SASL_PLAINTEXT (28091), SCRAM-SHA-512
	KafkaSSLJKS         = "ssl"             // SSL (28093), client certificate in a JKS store
	KafkaSSLP12         = "ssl-p12"         // the same, PKCS12 stores
	KafkaSSLPEM         = "ssl-pem"         // the same, PEM files (encrypted key)
)

// KafkaModes are all the modes, in the order above.
var KafkaModes = []string{KafkaSCRAM, KafkaSCRAM256, KafkaPLAIN, KafkaGSSAPI, KafkaPlaintextSCRAM,
	KafkaSSLJKS, KafkaSSLP12, KafkaSSLPEM}

// Principal is the full principal of a service (nn -> nn/localhost@GOBENCH.TEST) or a
// user (jason -> jason@GOBENCH.TEST).
func Principal(name string) string {
	if slices.Contains(Services, name) {
		return name + "/" + Host + "@" + Realm
	}
	return name + "@" + Realm
}

// node is one secured server process and its listening ports (the first is its address).
type node struct {
	name  string
	ports []int
}

// nodes is the node table of testenv/srv/secure-common.sh (sec_ports); a unit test
// compares the two.
var nodes = []node{
	{"kdc", []int{28088}},
	{"hdfs-nn", []int{28000, 28470}},
	{"hdfs-dn", []int{28010, 28475, 28011}},
	{"hbase-zk", []int{28181}},
	{"hbase-master", []int{28600}},
	{"hbase-rs", []int{28620}},
	{"kafka", []int{28092, 28091, 28093, 28095}},
}

// systemNodes: the nodes of each system, as "testenv/up.sh --secure SYSTEM" starts them.
var systemNodes = map[string][]string{
	"kdc":   {"kdc"},
	"hdfs":  {"hdfs-nn", "hdfs-dn"},
	"hbase": {"hbase-zk", "hbase-master", "hbase-rs"},
	"kafka": {"kafka"},
}

// Env is the secured testenv of one run directory.
type Env struct {
	dir    string // testenv/ (secure.sh)
	run    string // $GOBENCH_RUN
	secure string // $GOBENCH_RUN/secure
	dirErr error  // why testenv/ was not found (only the script helpers need it)
}

// Open returns the Env of the run directory GOBENCH_RUN (default
// $TMPDIR/gobench-testenv, as testenv/lib.sh). It finds testenv/secure.sh in
// GOBENCH_TESTENV or in the testenv/ directory of the enclosing module; only the
// script helpers need it. It does not contact the servers ([Env.Check] does).
func Open() (*Env, error) {
	run := os.Getenv("GOBENCH_RUN")
	if run == "" {
		run = filepath.Join(os.TempDir(), "gobench-testenv")
	}
	e := &Env{run: run, secure: filepath.Join(run, "secure")}
	e.dir, e.dirErr = findTestenv()
	return e, nil
}

func findTestenv() (string, error) {
	if d := os.Getenv("GOBENCH_TESTENV"); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("secure: find testenv: %w", err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "testenv"), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("secure: no go.mod above %s; set GOBENCH_TESTENV to the testenv directory", wd)
		}
	}
}

// Dir is the secured servers' run directory ($GOBENCH_RUN/secure).
func (e *Env) Dir() string { return e.secure }

// Krb5Conf is the krb5.conf every client uses (KRB5_CONFIG, -Djava.security.krb5.conf,
// gokrb5's config.Load).
func (e *Env) Krb5Conf() string { return filepath.Join(e.secure, "krb5.conf") }

// ConfDir holds core-site.xml, hdfs-site.xml, hbase-site.xml (as field report 004's
// YCSB conf dir) and the Kafka client properties files.
func (e *Env) ConfDir() string { return filepath.Join(e.secure, "conf") }

// Keytab is the keytab of a user (jason) or service (hbase, nn, kafka, ...).
func (e *Env) Keytab(name string) string {
	return filepath.Join(e.secure, "keytabs", name+".keytab")
}

// CCache is the ticket cache [Env.Kinit] (and testenv/secure.sh kinit) fills for name.
func (e *Env) CCache(name string) string { return filepath.Join(e.secure, "ccache", name) }

// KafkaProps is the path of the Kafka client properties file for user and mode (one of
// [KafkaModes]); conf/kafka-admin.properties is the superuser's (GSSAPI).
func (e *Env) KafkaProps(user, mode string) string {
	return filepath.Join(e.ConfDir(), "kafka-"+user+"-"+mode+".properties")
}

// CACert is the CA certificate (PEM) that signed every server and client certificate.
func (e *Env) CACert() string { return e.tls("ca.pem") }

// Truststore is the CA in a trust store of type "jks" or "p12" (password: StorePassword).
func (e *Env) Truststore(typ string) string { return e.tls("truststore." + typ) }

// ClientCert is user's client certificate (PEM, CN=user).
func (e *Env) ClientCert(user string) string { return e.tls(user + ".pem") }

// ClientKey is user's private key, PKCS#8 PEM, unencrypted.
func (e *Env) ClientKey(user string) string { return e.tls(user + ".key") }

// ClientEncKey is user's private key, PKCS#8 PEM encrypted with StorePassword
// (PBE-SHA1-3DES: Java's Kafka client reads no PBES2 key).
func (e *Env) ClientEncKey(user string) string { return e.tls(user + ".enc.key") }

// Keystore is user's key and certificate in a store of type "jks" or "p12".
func (e *Env) Keystore(user, typ string) string { return e.tls(user + "." + typ) }

func (e *Env) tls(name string) string { return filepath.Join(e.secure, "tls", name) }

// Password is a test user's password (Kerberos, Kafka SCRAM and PLAIN), read from the
// run directory.
func (e *Env) Password(user string) (string, error) {
	if !slices.Contains(Users, user) {
		return "", fmt.Errorf("secure: %q is not a test user (users: %s)", user, strings.Join(Users, ", "))
	}
	return e.secret(user + ".password")
}

// StorePassword is the password of every key and trust store (and of the encrypted keys).
func (e *Env) StorePassword() (string, error) { return e.secret("store.password") }

func (e *Env) secret(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join(e.secure, "secrets", name))
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("secure: no %s in %s: the secured testenv is not set up; start it with: testenv/up.sh --secure", name, e.secure)
	}
	if err != nil {
		return "", fmt.Errorf("secure: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", fmt.Errorf("secure: %s in %s is empty", name, e.secure)
	}
	return s, nil
}

// Secrets returns every secret of the run directory (the users' passwords and the store
// password), for tests that check that no output holds one. Secrets that do not exist
// (yet) are left out.
func (e *Env) Secrets() []string {
	var out []string
	for _, u := range Users {
		if s, err := e.Password(u); err == nil {
			out = append(out, s)
		}
	}
	if s, err := e.StorePassword(); err == nil {
		out = append(out, s)
	}
	return out
}
