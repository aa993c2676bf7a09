package hbclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/types"
)

// QOP is a SASL quality of protection (Hadoop's hbase.rpc.protection).
type QOP uint8

// The protections, with their SASL security-layer bits (RFC 4752 §3.3).
const (
	QOPAuthentication QOP = 1 // "authentication" (auth): no wrapping
	QOPIntegrity      QOP = 2 // "integrity" (auth-int): every packet signed
	QOPPrivacy        QOP = 4 // "privacy" (auth-conf): every packet encrypted
)

func (q QOP) String() string {
	switch q {
	case QOPAuthentication:
		return "authentication"
	case QOPIntegrity:
		return "integrity"
	case QOPPrivacy:
		return "privacy"
	}
	return fmt.Sprintf("QOP(%d)", uint8(q))
}

// Kerberos makes a [Client] authenticate every connection with SASL GSSAPI
// (Kerberos), as Java's client does with hbase.security.authentication=
// kerberos. Credentials come from a keytab (Keytab and Principal) or from a
// ticket cache written by kinit (CCache). A Kerberos is shared by every
// connection of a client; its fields must not change once in use.
type Kerberos struct {
	// Krb5Conf is the parsed krb5.conf; Krb5ConfPath names it in messages.
	Krb5Conf     *config.Config
	Krb5ConfPath string
	// Principal is the user (user[/instance][@REALM]; the default realm of
	// krb5.conf without one). With a keytab it is required; with a ticket
	// cache it is optional and, when set, must be the cache's principal.
	Principal string
	// Keytab is the path of a keytab holding Principal's keys; empty: use
	// the ticket cache.
	Keytab string
	// CCache is the path of a FILE ticket cache (KRB5CCNAME without
	// "FILE:"); used when Keytab is empty.
	CCache string
	// RegionServerPrincipal and MasterPrincipal are the servers' principals
	// (hbase.regionserver.kerberos.principal, hbase.master.kerberos.principal),
	// usually "hbase/_HOST@REALM": _HOST becomes the server's host name.
	RegionServerPrincipal string
	MasterPrincipal       string
	// QOP lists the protections the client accepts, preferred first
	// (hbase.rpc.protection); empty: authentication only.
	QOP []QOP

	mu     sync.Mutex
	cl     *krbclient.Client
	tgtEnd time.Time // when the ticket cache's TGT expires
}

// AuthError is a failed Kerberos login or SASL exchange: no ticket, an
// expired one, a missing keytab, a principal the KDC does not know, or the
// server refusing the client. It does not wrap [ErrConnection]: operations
// fail at once instead of retrying.
type AuthError struct {
	Principal string // the client principal (as far as known)
	Server    string // the server principal, when the failure concerns one
	Err       error
}

func (e *AuthError) Error() string {
	who := e.Principal
	if who == "" {
		return fmt.Sprintf("Kerberos authentication failed (no principal given, none from a ticket cache): %v", e.Err)
	}
	if e.Server != "" {
		return fmt.Sprintf("Kerberos authentication of %s to %s failed: %v", who, e.Server, e.Err)
	}
	return fmt.Sprintf("Kerberos authentication of %s failed: %v", who, e.Err)
}

func (e *AuthError) Unwrap() error { return e.Err }

// Login obtains the client's Kerberos credentials now (a TGT from the KDC
// with the keytab, or the ticket cache's TGT), so that an authentication
// problem stops a run before it starts. It does nothing without Kerberos.
// Connections log in by themselves when needed.
func (c *Client) Login(ctx context.Context) error {
	if c.opts.Kerberos == nil {
		return nil
	}
	_, err := c.opts.Kerberos.login()
	return err
}

// principalName returns what messages call the client.
func (k *Kerberos) principalName() string {
	p := k.Principal
	if p != "" && !strings.Contains(p, "@") && k.Krb5Conf != nil && k.Krb5Conf.LibDefaults.DefaultRealm != "" {
		p += "@" + k.Krb5Conf.LibDefaults.DefaultRealm
	}
	return p
}

// login returns the logged-in gokrb5 client, logging in once. A failure is
// not remembered: the next call tries again (a kinit meanwhile helps).
func (k *Kerberos) login() (*krbclient.Client, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cl != nil {
		if err := k.checkCCacheExpiry(k.cl); err != nil {
			return nil, err
		}
		return k.cl, nil
	}
	fail := func(format string, a ...any) error {
		return &AuthError{Principal: k.principalName(), Err: fmt.Errorf(format, a...)}
	}
	if k.Krb5Conf == nil {
		return nil, fail("no krb5.conf")
	}
	settings := []func(*krbclient.Settings){krbclient.DisablePAFXFAST(true)}
	var cl *krbclient.Client
	if k.Keytab != "" {
		user, realm := splitPrincipal(k.Principal)
		if realm == "" {
			realm = k.Krb5Conf.LibDefaults.DefaultRealm
		}
		if user == "" {
			return nil, fail("a keytab (%s) needs a principal", k.Keytab)
		}
		kt, err := keytab.Load(k.Keytab)
		if err != nil {
			return nil, fail("keytab %s: %v", k.Keytab, trimPathErr(err))
		}
		cl = krbclient.NewWithKeytab(user, realm, kt, k.Krb5Conf, settings...)
		if err := cl.Login(); err != nil {
			return nil, fail("login with keytab %s: %v", k.Keytab, err)
		}
	} else {
		if k.CCache == "" {
			return nil, fail("no keytab and no ticket cache: run kinit (or set KRB5CCNAME), or give a keytab")
		}
		cc, err := credentials.LoadCCache(k.CCache)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fail("no Kerberos ticket: ticket cache %s does not exist; run kinit (or give a principal and keytab)", k.CCache)
			}
			return nil, fail("ticket cache %s: %v", k.CCache, trimPathErr(err))
		}
		got := cc.DefaultPrincipal.PrincipalName.PrincipalNameString() + "@" + cc.DefaultPrincipal.Realm
		if want := k.principalName(); want != "" && !strings.EqualFold(want, got) {
			return nil, fail("the ticket cache %s holds the tickets of %s, not of %s; kinit as %s (or give a keytab)", k.CCache, got, want, want)
		}
		tgt := types.NewPrincipalName(nametype.KRB_NT_SRV_INST, "krbtgt/"+cc.DefaultPrincipal.Realm)
		if e, ok := cc.GetEntry(tgt); ok {
			k.tgtEnd = e.EndTime
		}
		cl, err = krbclient.NewFromCCache(cc, k.Krb5Conf, settings...)
		if err != nil {
			return nil, &AuthError{Principal: got, Err: fmt.Errorf("ticket cache %s: %v; run kinit", k.CCache, err)}
		}
		if err := k.checkCCacheExpiry(cl); err != nil {
			return nil, err
		}
	}
	k.cl = cl
	return cl, nil
}

// checkCCacheExpiry fails when the TGT came from a ticket cache and has
// expired (a keytab login renews by itself).
func (k *Kerberos) checkCCacheExpiry(cl *krbclient.Client) error {
	if k.Keytab != "" || k.tgtEnd.IsZero() || k.tgtEnd.After(time.Now()) {
		return nil
	}
	return &AuthError{Principal: cl.Credentials.CName().PrincipalNameString() + "@" + cl.Credentials.Realm(),
		Err: fmt.Errorf("the ticket in %s expired at %s; run kinit again", k.CCache, k.tgtEnd.UTC().Format(time.RFC3339))}
}

// serverPrincipal returns the principal of service on host (_HOST
// replaced by the host name, lower case, as Java's SecurityUtil does; an
// IP address is first turned into its name).
func (k *Kerberos) serverPrincipal(service, addr string) (string, error) {
	tmpl := k.RegionServerPrincipal
	key := "hbase.regionserver.kerberos.principal"
	if service == "MasterService" {
		tmpl, key = k.MasterPrincipal, "hbase.master.kerberos.principal"
	}
	if tmpl == "" {
		return "", fmt.Errorf("%s is not set: it names the server's Kerberos principal, e.g. hbase/_HOST@%s", key, k.realm())
	}
	if !strings.Contains(tmpl, "_HOST") {
		return tmpl, nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if ip := net.ParseIP(host); ip != nil {
		if names, err := net.LookupAddr(host); err == nil && len(names) > 0 {
			host = strings.TrimSuffix(names[0], ".")
		}
	}
	return strings.Replace(tmpl, "_HOST", strings.ToLower(host), 1), nil
}

func (k *Kerberos) realm() string {
	if k.Krb5Conf != nil && k.Krb5Conf.LibDefaults.DefaultRealm != "" {
		return k.Krb5Conf.LibDefaults.DefaultRealm
	}
	return "REALM"
}

// splitPrincipal splits "name@REALM" (the last @).
func splitPrincipal(p string) (name, realm string) {
	if i := strings.LastIndexByte(p, '@'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return p, ""
}

// trimPathErr drops the operation prefix of a *PathError (the path is in
// the message already).
func trimPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
