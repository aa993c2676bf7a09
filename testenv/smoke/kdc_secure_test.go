//go:build secure

package smoke

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"

	"github.com/gobench/gobench/testenv/secure"
)

// The KDC with the krb5.conf, keytabs and passwords of the run directory works for
// gokrb5 (as gobench's clients will use it) and for MIT's kinit: tickets for every
// service principal, a password login, a wrong password refused, and a ticket cache
// written by kinit read by gokrb5.
func TestSecureKDC(t *testing.T) {
	e := secureEnv(t)
	cfg, err := config.Load(e.Krb5Conf())
	if err != nil {
		t.Fatalf("gokrb5 cannot read %s: %v", e.Krb5Conf(), err)
	}
	kt, err := keytab.Load(e.Keytab(secure.Jason))
	if err != nil {
		t.Fatal(err)
	}
	cl := client.NewWithKeytab(secure.Jason, secure.Realm, kt, cfg, client.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		t.Fatalf("keytab login as jason: %v", err)
	}
	defer cl.Destroy()
	for _, svc := range secure.Services {
		spn := svc + "/" + secure.Host
		tkt, _, err := cl.GetServiceTicket(spn)
		if err != nil {
			t.Errorf("service ticket for %s: %v", spn, err)
			continue
		}
		if got := tkt.SName.PrincipalNameString(); got != spn {
			t.Errorf("ticket for %s names %s", spn, got)
		}
	}

	pw, err := e.Password(secure.NoGrant)
	if err != nil {
		t.Fatal(err)
	}
	pcl := client.NewWithPassword(secure.NoGrant, secure.Realm, pw, cfg, client.DisablePAFXFAST(true))
	if err := pcl.Login(); err != nil {
		t.Errorf("password login as nogrant: %v", err)
	}
	pcl.Destroy()
	bad := client.NewWithPassword(secure.NoGrant, secure.Realm, pw+"x", cfg, client.DisablePAFXFAST(true))
	err = bad.Login()
	if err == nil {
		t.Errorf("a wrong password for nogrant logged in")
	} else if !strings.Contains(err.Error(), "KDC_ERR_PREAUTH_FAILED") && !strings.Contains(err.Error(), "Decrypting_Error") {
		t.Errorf("wrong password: %v (want a pre-authentication or decryption failure)", err)
	}

	ctx := ctxFor(t, 2*time.Minute)
	cc, err := e.Kinit(ctx, secure.Jason)
	if err != nil {
		t.Fatal(err)
	}
	if cc != e.CCache(secure.Jason) {
		t.Errorf("kinit wrote %s, want %s", cc, e.CCache(secure.Jason))
	}
	if fi, err := os.Stat(cc); err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Fatalf("ticket cache %s: %v, mode %v (want private)", cc, err, fi.Mode())
	}
	ccache, err := credentials.LoadCCache(cc)
	if err != nil {
		t.Fatalf("gokrb5 cannot read kinit's cache: %v", err)
	}
	if got := ccache.DefaultPrincipal.PrincipalName.PrincipalNameString() + "@" + ccache.DefaultPrincipal.Realm; got != secure.Principal(secure.Jason) {
		t.Errorf("cache principal %s", got)
	}
	ccl, err := client.NewFromCCache(ccache, cfg, client.DisablePAFXFAST(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ccl.GetServiceTicket("hbase/" + secure.Host); err != nil {
		t.Errorf("service ticket from kinit's TGT: %v", err)
	}
}
