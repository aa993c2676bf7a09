package hdfs

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/colinmarc/hdfs/v2/hadoopconf"

	"github.com/gobench/gobench/props"
)

// Hadoop's own configuration names, read from core-site.xml and
// hdfs-site.xml in the conf directory; the same names given as properties
// (-p, or -D in gobench dfsio) override the files, as Hadoop's -D does.
const (
	KeyDefaultFS       = "fs.defaultFS"
	KeyAuthentication  = "hadoop.security.authentication"
	KeyNNPrincipal     = "dfs.namenode.kerberos.principal"
	KeyTransferProt    = "dfs.data.transfer.protection"
	KeyEncryptTransfer = "dfs.encrypt.data.transfer"
	KeyRPCProtection   = "hadoop.rpc.protection"
)

// siteKeys are the Hadoop keys the driver takes from the conf directory.
var siteKeys = []string{KeyDefaultFS, KeyAuthentication, KeyNNPrincipal, KeyTransferProt, KeyEncryptTransfer, KeyRPCProtection}

// site is the Hadoop configuration the driver uses: the files of the conf
// directory (dir, "" when none) overlaid with the properties of the same
// names.
type site struct {
	dir  string
	conf hadoopconf.HadoopConf
}

// confDir picks the conf directory: hdfs.conf.dir, else the first
// directory of gobench.classpath (YCSB's -cp) holding core-site.xml or
// hdfs-site.xml, else $HADOOP_CONF_DIR. key names where it came from.
func confDir(dir, cp string) (path, key string) {
	if dir != "" {
		return dir, KeyConfDir
	}
	for _, e := range filepath.SplitList(cp) {
		if e == "" || strings.HasSuffix(e, ".jar") || strings.HasSuffix(e, "*") {
			continue
		}
		for _, f := range []string{"core-site.xml", "hdfs-site.xml"} {
			if _, err := os.Stat(filepath.Join(e, f)); err == nil {
				return e, KeyClasspath
			}
		}
	}
	if d := os.Getenv("HADOOP_CONF_DIR"); d != "" {
		return d, "HADOOP_CONF_DIR"
	}
	return "", ""
}

// loadSite reads the conf directory (a directory named explicitly must
// hold core-site.xml or hdfs-site.xml) and lays the properties over it.
func loadSite(d *props.Decoder, dir, key string) site {
	s := site{dir: dir, conf: hadoopconf.HadoopConf{}}
	if dir != "" {
		c, err := hadoopconf.Load(dir)
		switch {
		case err != nil:
			failKey(d, key, dir, fmt.Errorf("read the Hadoop configuration: %w", err), "a directory holding core-site.xml and hdfs-site.xml")
		case c == nil:
			failKey(d, key, dir, fmt.Errorf("no core-site.xml or hdfs-site.xml in %s", dir), "a directory holding core-site.xml and hdfs-site.xml")
		default:
			s.conf = c
		}
	}
	for _, k := range siteKeys {
		if v, ok := d.Lookup(k); ok {
			d.String(k, "") // marks it used
			s.conf[k] = v.Value
		}
	}
	return s
}

// failKey records a bad value of key; key may be HADOOP_CONF_DIR (not a
// property).
func failKey(d *props.Decoder, key, value string, err error, allowed string) {
	e := &props.Error{Key: key, Value: value, Err: err, Allowed: allowed}
	if v, ok := d.Lookup(key); ok {
		e.Source, e.Line = v.Source, v.Line
	} else if key == "HADOOP_CONF_DIR" {
		e.Source = "environment"
	}
	d.Fail(e)
}

// get returns a key's value and where it came from (for messages).
func (s site) get(k string) (string, string) {
	v := strings.TrimSpace(s.conf[k])
	if s.dir == "" {
		return v, k
	}
	return v, k + " (" + s.dir + ")"
}

// namenodes resolves fs.defaultFS to NameNode RPC addresses: hdfs://host:port,
// hdfs://host (port 8020, Hadoop's default) or hdfs://nameservice, whose
// NameNodes are dfs.ha.namenodes.NS and dfs.namenode.rpc-address.NS.ID.
func (s site) namenodes() ([]string, error) {
	fsURI, _ := s.get(KeyDefaultFS)
	if fsURI == "" {
		fsURI = s.conf["fs.default.name"]
	}
	if fsURI == "" {
		return nil, nil
	}
	u, err := url.Parse(fsURI)
	if err != nil || u.Host == "" || (u.Scheme != "hdfs" && u.Scheme != "") {
		return nil, fmt.Errorf("%s=%q: want hdfs://host:port or hdfs://nameservice", KeyDefaultFS, fsURI)
	}
	if u.Port() != "" {
		return []string{u.Host}, nil
	}
	ns := u.Host
	if ids := s.conf["dfs.ha.namenodes."+ns]; ids != "" {
		var out []string
		for _, id := range strings.Split(ids, ",") {
			a := strings.TrimSpace(s.conf["dfs.namenode.rpc-address."+ns+"."+strings.TrimSpace(id)])
			if a == "" {
				return nil, fmt.Errorf("nameservice %s: no dfs.namenode.rpc-address.%s.%s", ns, ns, strings.TrimSpace(id))
			}
			out = append(out, a)
		}
		return out, nil
	}
	if a := strings.TrimSpace(s.conf["dfs.namenode.rpc-address."+ns]); a != "" {
		return []string{a}, nil
	}
	return []string{net.JoinHostPort(ns, "8020")}, nil
}

// configureSecurity decodes the Kerberos and protection settings into c.
func configureSecurity(d *props.Decoder, st site, c *Config) {
	auth, authSrc := st.get(KeyAuthentication)
	principal := pick(d, KeyPrincipal, KeyYCSBPrincipal)
	kt := pick(d, KeyKeytab, KeyYCSBKeytab)
	switch strings.ToLower(auth) {
	case "", "simple":
		if principal != "" || kt != "" {
			d.Fail(fmt.Errorf("hdfs: %s or %s is set but %s is %q: set %s=kerberos (or point %s at the cluster's conf directory)",
				KeyPrincipal, KeyKeytab, authSrc, orDefault(auth, "simple"), KeyAuthentication, KeyConfDir))
		}
	case "kerberos":
		k := &Kerberos{Principal: principal, Keytab: kt}
		nnp, src := st.get(KeyNNPrincipal)
		if nnp == "" {
			d.Fail(fmt.Errorf("hdfs: %s=kerberos needs %s (hdfs-site.xml), the NameNode's principal such as nn/_HOST@REALM", authSrc, KeyNNPrincipal))
		} else if name, realm, _ := strings.Cut(nnp, "@"); !strings.Contains(name, "/") {
			d.Fail(fmt.Errorf("hdfs: %s=%q: want service/host@REALM (host may be _HOST)", src, nnp))
		} else {
			k.NNPrincipal, k.Realm = name, realm
		}
		if kt != "" {
			if principal == "" {
				d.Fail(fmt.Errorf("hdfs: %s=%s needs %s, the principal to log in as (klist -kt %s lists them)", KeyKeytab, kt, KeyPrincipal, kt))
			} else if f, err := os.Open(kt); err != nil {
				d.Fail(fmt.Errorf("hdfs: Kerberos login as %s: keytab %s: %w", principal, kt, err))
			} else {
				f.Close()
			}
		}
		c.Kerberos = k
	default:
		failKey(d, KeyAuthentication, auth, fmt.Errorf("unknown authentication (%s)", authSrc), "simple, kerberos")
	}
	prot, src := st.get(KeyTransferProt)
	c.Protection = strongest(d, KeyTransferProt, src, prot)
	enc, esrc := st.get(KeyEncryptTransfer)
	switch strings.ToLower(enc) {
	case "", "false":
	case "true":
		c.Protection = "privacy" // encrypted with the NameNode's data encryption key (colinmarc's SASL)
	default:
		failKey(d, KeyEncryptTransfer, enc, fmt.Errorf("not a boolean (%s)", esrc), "true, false")
	}
	rp, rsrc := st.get(KeyRPCProtection)
	c.RPCProtection = strongest(d, KeyRPCProtection, rsrc, rp)
}

// pick returns the value of key, or of its YCSB spelling alt; both set to
// different values is an error.
func pick(d *props.Decoder, key, alt string) string {
	a, b := strings.TrimSpace(d.String(key, "")), strings.TrimSpace(d.String(alt, ""))
	if a != "" && b != "" && a != b {
		d.Fail(fmt.Errorf("hdfs: %s=%s and %s=%s disagree: give one", key, a, alt, b))
	}
	if a == "" {
		return b
	}
	return a
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// strongest checks a comma-separated QOP list and returns its strongest.
func strongest(d *props.Decoder, key, src, v string) string {
	best, rank := "", 0
	for _, q := range strings.Split(v, ",") {
		q = strings.ToLower(strings.TrimSpace(q))
		r := map[string]int{"": 0, "authentication": 1, "integrity": 2, "privacy": 3}[q]
		if r == 0 && q != "" {
			failKey(d, key, v, fmt.Errorf("unknown protection %q (%s)", q, src), "authentication, integrity, privacy (comma-separated)")
			return ""
		}
		if r > rank {
			best, rank = q, r
		}
	}
	return best
}
