package hbase

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase/hbclient"
	"github.com/gobench/gobench/props"
	"github.com/jcmturner/gokrb5/v8/config"
)

// Security property keys: HBase's own names (also read from hbase-site.xml;
// a property given with -p wins) besides YCSB's principal and keytab.
const (
	KeyAuthentication   = "hbase.security.authentication"
	KeyRPCProtection    = "hbase.rpc.protection"
	KeyRSPrincipal      = "hbase.regionserver.kerberos.principal"
	KeyMasterPrincipal  = "hbase.master.kerberos.principal"
	KeyClientKeytab     = "hbase.client.keytab.file"
	KeyClientPrincipal  = "hbase.client.keytab.principal"   // HBase's AuthUtil
	KeyClientPrincipal2 = "hbase.client.kerberos.principal" // the spelling many tools use
)

func securityKeys() []props.Key {
	return []props.Key{
		{Name: KeyAuthentication, Default: "simple", Usage: "simple, or kerberos (SASL GSSAPI with a keytab or kinit's ticket cache: KRB5CCNAME, krb5.conf from KRB5_CONFIG or /etc/krb5.conf); also read from hbase-site.xml"},
		{Name: KeyRPCProtection, Default: "authentication", Usage: "SASL protection with kerberos: authentication, integrity or privacy, or a ','-separated list in order of preference; also read from hbase-site.xml"},
		{Name: KeyRSPrincipal, Usage: "the RegionServers' Kerberos principal, e.g. hbase/_HOST@REALM (_HOST: the server's host name); also read from hbase-site.xml"},
		{Name: KeyMasterPrincipal, Usage: "the master's Kerberos principal (default: " + KeyRSPrincipal + "); also read from hbase-site.xml"},
		{Name: KeyClientKeytab, Usage: "keytab to log in with (as " + KeyKeytab + "); also read from hbase-site.xml"},
		{Name: KeyClientPrincipal, Usage: "principal of " + KeyClientKeytab + " (as " + KeyPrincipal + "); also read from hbase-site.xml"},
		{Name: KeyClientPrincipal2, Usage: "the same as " + KeyClientPrincipal},
	}
}

// decodeSecurity sets cfg.Client.Kerberos when hbase.security.authentication
// is kerberos (property or hbase-site.xml). Credentials: YCSB's principal
// and keytab, else hbase.client.keytab.file and its principal, else the
// ticket cache (KRB5CCNAME, default /tmp/krb5cc_UID) with principal, if
// given, checked against it.
func decodeSecurity(p *props.Decoder, site siteConfig, cfg *Config) {
	get := func(keys ...string) (string, string) {
		for _, k := range keys {
			if v := strings.TrimSpace(p.String(k, "")); v != "" {
				return v, k
			}
		}
		for _, k := range keys {
			if v := site.all[k]; v != "" {
				return v, k + " (hbase-site.xml)"
			}
		}
		return "", keys[0]
	}
	auth, authKey := get(KeyAuthentication)
	principal, _ := get(KeyPrincipal, KeyClientPrincipal, KeyClientPrincipal2)
	kt, ktKey := get(KeyKeytab, KeyClientKeytab)
	rs, _ := get(KeyRSPrincipal)
	master, _ := get(KeyMasterPrincipal)
	prot, protKey := get(KeyRPCProtection)
	switch strings.ToLower(auth) {
	case "", "simple":
		for _, k := range []string{KeyPrincipal, KeyKeytab, KeyClientKeytab, KeyClientPrincipal, KeyClientPrincipal2} {
			if v, ok := p.Lookup(k); ok && strings.TrimSpace(v.Value) != "" {
				p.Failf(k, "a Kerberos credential, but %s is simple; set %s=kerberos (or put it in hbase-site.xml) or remove %s", KeyAuthentication, KeyAuthentication, k)
			}
		}
		return
	case "kerberos":
	default:
		p.Failf(KeyAuthentication, "%s=%q: want simple or kerberos", authKey, auth)
		return
	}
	k := &hbclient.Kerberos{Principal: principal, Keytab: kt, RegionServerPrincipal: rs, MasterPrincipal: master}
	if k.MasterPrincipal == "" {
		k.MasterPrincipal = rs
	}
	for _, q := range strings.Split(prot, ",") {
		switch strings.ToLower(strings.TrimSpace(q)) {
		case "", "authentication", "auth":
			k.QOP = append(k.QOP, hbclient.QOPAuthentication)
		case "integrity", "auth-int":
			k.QOP = append(k.QOP, hbclient.QOPIntegrity)
		case "privacy", "auth-conf":
			k.QOP = append(k.QOP, hbclient.QOPPrivacy)
		default:
			p.Failf(KeyRPCProtection, "%s=%q: want authentication, integrity or privacy (or a ','-separated list of them)", protKey, prot)
		}
	}
	confPath := os.Getenv("KRB5_CONFIG")
	if confPath == "" {
		confPath = "/etc/krb5.conf"
	}
	k.Krb5ConfPath = confPath
	realm := "REALM"
	if c, err := config.Load(confPath); err != nil {
		p.Failf(KeyAuthentication, "kerberos: krb5.conf %s (KRB5_CONFIG): %v", confPath, trimPathErr(err))
	} else {
		k.Krb5Conf = c
		if c.LibDefaults.DefaultRealm != "" {
			realm = c.LibDefaults.DefaultRealm
		}
	}
	if rs == "" {
		p.Failf(KeyRSPrincipal, "%s=kerberos needs the servers' principal: set %s (hbase-site.xml of the cluster has it, e.g. hbase/_HOST@%s; pass its directory with -cp or %s)", KeyAuthentication, KeyRSPrincipal, realm, KeyConfDir)
	}
	who := principal
	if who == "" {
		who = "(the ticket cache's principal)"
	}
	if kt != "" {
		if principal == "" {
			p.Failf(ktKey, "keytab %s needs a principal: set %s (YCSB's) or %s", kt, KeyPrincipal, KeyClientPrincipal)
		}
		if f, err := os.Open(kt); err != nil {
			p.Failf(ktKey, "keytab of %s: %v; give the path of a readable keytab, or kinit and remove %s", who, err, ktKey)
		} else {
			f.Close()
		}
	} else {
		k.CCache = ticketCache()
		if strings.Contains(k.CCache, ":") && !strings.HasPrefix(k.CCache, "FILE:") {
			p.Failf(KeyAuthentication, "kerberos: ticket cache KRB5CCNAME=%s: only FILE: caches are supported; kinit -c FILE:/path, or give %s and %s", k.CCache, KeyPrincipal, KeyKeytab)
		}
		k.CCache = strings.TrimPrefix(k.CCache, "FILE:")
	}
	cfg.Client.Kerberos = k
}

// ticketCache is kinit's cache: KRB5CCNAME, else /tmp/krb5cc_UID.
func ticketCache() string {
	if v := os.Getenv("KRB5CCNAME"); v != "" {
		return v
	}
	return "/tmp/krb5cc_" + strconv.Itoa(os.Getuid())
}

func trimPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// accessDenied is HBase's exception for an operation the ACLs forbid.
const accessDenied = "org.apache.hadoop.hbase.security.AccessDeniedException"

// forbidden marks err FORBIDDEN when HBase denied the operation
// (AccessDeniedException, from the AccessController).
func forbidden(err error) error {
	var re *hbclient.RemoteError
	if errors.As(err, &re) && re.Class == accessDenied {
		return &drivers.StatusError{Status: drivers.Forbidden, Err: err}
	}
	return err
}
