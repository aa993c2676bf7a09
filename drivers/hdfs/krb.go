package hdfs

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	krb "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/spnego"
	"github.com/jcmturner/gokrb5/v8/types"
)

// Kerberos is how the driver logs in when hadoop.security.authentication
// is kerberos: from Keytab as Principal, or else from the ticket cache of
// kinit (KRB5CCNAME, default /tmp/krb5cc_UID). krb5.conf is KRB5_CONFIG,
// default /etc/krb5.conf.
type Kerberos struct {
	Principal string // user[/host][@REALM]; "" with a ticket cache: the cache's
	Keytab    string // path; "" = the ticket cache
	// NNPrincipal is dfs.namenode.kerberos.principal without the realm
	// (nn/_HOST): _HOST is the NameNode's host name.
	NNPrincipal string
	Realm       string // of dfs.namenode.kerberos.principal; "" = krb5.conf's default
}

// ccachePath returns the ticket cache kinit uses: KRB5CCNAME (FILE:path or
// a path), else /tmp/krb5cc_UID.
func ccachePath() (string, error) {
	v := os.Getenv("KRB5CCNAME")
	if v == "" {
		return fmt.Sprintf("/tmp/krb5cc_%d", os.Getuid()), nil
	}
	if t, rest, ok := strings.Cut(v, ":"); ok && !strings.Contains(t, "/") {
		if t != "FILE" {
			return "", fmt.Errorf("KRB5CCNAME=%s: only FILE: ticket caches can be read (not %s:); kinit -c FILE:/path, or use a keytab", v, t)
		}
		return rest, nil
	}
	return v, nil
}

func krb5ConfPath() string {
	if p := os.Getenv("KRB5_CONFIG"); p != "" {
		return p
	}
	return "/etc/krb5.conf"
}

// login returns a logged-in Kerberos client and the principal it is, or an
// error that names the principal and the cause.
func (k *Kerberos) login() (*krb.Client, string, error) {
	confPath := krb5ConfPath()
	cfg, err := config.Load(confPath)
	if err != nil {
		return nil, k.Principal, fmt.Errorf("read krb5.conf %s (KRB5_CONFIG): %w", confPath, err)
	}
	if k.Keytab != "" {
		kt, err := keytab.Load(k.Keytab)
		if err != nil {
			return nil, k.Principal, fmt.Errorf("read keytab %s: %w", k.Keytab, err)
		}
		user, realm, _ := strings.Cut(k.Principal, "@")
		if realm == "" {
			realm = cfg.LibDefaults.DefaultRealm
		}
		name := user + "@" + realm
		cl := krb.NewWithKeytab(user, realm, kt, cfg, krb.DisablePAFXFAST(true))
		if err := cl.Login(); err != nil {
			return nil, name, fmt.Errorf("login from keytab %s: %w", k.Keytab, err)
		}
		return cl, name, nil
	}
	path, err := ccachePath()
	if err != nil {
		return nil, k.Principal, err
	}
	cc, err := credentials.LoadCCache(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			err = fmt.Errorf("no ticket cache %s: run kinit, or set %s and %s", path, KeyKeytab, KeyPrincipal)
		} else {
			err = fmt.Errorf("read ticket cache %s: %w", path, err)
		}
		return nil, k.Principal, err
	}
	pn := cc.GetClientPrincipalName()
	name := pn.PrincipalNameString() + "@" + cc.GetClientRealm()
	if k.Principal != "" && !samePrincipal(k.Principal, name, cfg.LibDefaults.DefaultRealm) {
		return nil, k.Principal, fmt.Errorf("ticket cache %s holds %s, not %s: kinit as %s, or give its keytab", path, name, k.Principal, k.Principal)
	}
	cl, err := krb.NewFromCCache(cc, cfg, krb.DisablePAFXFAST(true))
	if err != nil {
		return nil, name, fmt.Errorf("ticket cache %s: %w (kinit again)", path, err)
	}
	for _, c := range cc.GetEntries() {
		if len(c.Server.PrincipalName.NameString) > 0 && c.Server.PrincipalName.NameString[0] == "krbtgt" && time.Now().After(c.EndTime) && time.Now().After(c.RenewTill) {
			return nil, name, fmt.Errorf("ticket cache %s: the ticket-granting ticket expired at %s (kinit again)", path, c.EndTime.UTC().Format(time.RFC3339))
		}
	}
	return cl, name, nil
}

func samePrincipal(a, b, defRealm string) bool {
	if !strings.Contains(a, "@") {
		a += "@" + defRealm
	}
	return a == b
}

// spn returns the NameNode's service principal for host (without realm):
// _HOST becomes the host's canonical name, as Java's SecurityUtil does (an
// IP address is looked up: 127.0.0.1 is localhost).
func (k *Kerberos) spn(host string) string {
	p := k.NNPrincipal
	if !strings.Contains(p, "_HOST") {
		return p
	}
	h := host
	if net.ParseIP(h) != nil {
		if names, err := net.LookupAddr(h); err == nil && len(names) > 0 {
			h = strings.TrimSuffix(names[0], ".")
		}
	}
	return strings.Replace(p, "_HOST", strings.ToLower(h), 1)
}

// describe names the credentials for messages (never a secret: the keytab's
// path, not its bytes).
func (k *Kerberos) describe() string {
	if k.Keytab != "" {
		return fmt.Sprintf("%s from keytab %s", k.Principal, k.Keytab)
	}
	if k.Principal != "" {
		return k.Principal + " from the ticket cache"
	}
	return "the ticket cache's principal"
}

// gss is hwire's GSSAPI with gokrb5: the initial token for the NameNode's
// service principal, and the wrap tokens of the security layer exchange,
// with the service ticket's session key.
type gss struct {
	cl  *krb.Client
	spn string
	key types.EncryptionKey
}

func (g *gss) InitToken() ([]byte, error) {
	tkt, key, err := g.cl.GetServiceTicket(g.spn)
	if err != nil {
		return nil, fmt.Errorf("service ticket for %s: %w", g.spn, err)
	}
	g.key = key
	tok, err := spnego.NewNegTokenInitKRB5(g.cl, tkt, key)
	if err != nil {
		return nil, err
	}
	return tok.MechTokenBytes, nil
}

func (g *gss) Unwrap(b []byte) ([]byte, error) {
	var wt gssapi.WrapToken
	if err := wt.Unmarshal(b, true); err != nil {
		return nil, err
	}
	if ok, err := wt.Verify(g.key, keyusage.GSSAPI_ACCEPTOR_SEAL); !ok {
		return nil, fmt.Errorf("wrap token does not verify: %w", err)
	}
	return wt.Payload, nil
}

func (g *gss) Wrap(payload []byte) ([]byte, error) {
	wt, err := gssapi.NewInitiatorWrapToken(payload, g.key)
	if err != nil {
		return nil, err
	}
	return wt.Marshal()
}
