package hwire

import (
	"errors"
	"strings"
	"testing"
)

// RFC 2831's example (section 4): the response and rspauth of user chris.
func TestDigestMD5RFC2831(t *testing.T) {
	ch := parseChallenge(`realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",algorithm=md5-sess,charset=utf-8`)
	if ch["realm"] != "elwood.innosoft.com" || ch["nonce"] != "OA6MG9tEQGm2hh" || ch["algorithm"] != "md5-sess" || ch["charset"] != "utf-8" {
		t.Fatalf("parsed %v", ch)
	}
	d := &digestMD5{user: "chris", pass: "secret", realm: ch["realm"], nonce: ch["nonce"], cnonce: "OA6MHXh6VqTrRk", uri: "imap/elwood.innosoft.com"}
	if got := d.digest("AUTHENTICATE"); got != "d388dad90d4bbd760a152321f2143af7" {
		t.Errorf("response %s", got)
	}
	if got := d.digest(""); got != "ea40f60335c427b5527b84dbabcdfffd" {
		t.Errorf("rspauth %s", got)
	}
	if r := d.response(); !strings.Contains(r, `digest-uri="imap/elwood.innosoft.com"`) || !strings.Contains(r, "qop=auth") || !strings.Contains(r, "response=d388dad90d4bbd760a152321f2143af7") {
		t.Errorf("response message %s", r)
	}
}

// A DataNode that offers only integrity or privacy is refused with
// ErrProtection (the driver then uses colinmarc's client).
func TestDigestMD5NeedsAuth(t *testing.T) {
	if _, err := newDigest([]byte(`realm="0",nonce="n",qop="auth-int,auth-conf"`), "u", "p"); !errors.Is(err, ErrProtection) {
		t.Errorf("qop auth-int,auth-conf: %v", err)
	}
	d, err := newDigest([]byte(`realm="0",nonce="n",qop="auth,auth-int,auth-conf",charset=utf-8`), "u", "p")
	if err != nil || d.uri != "hdfs/0" || d.realm != "0" || d.cnonce == "" {
		t.Errorf("%+v, %v", d, err)
	}
	if _, err := newDigest([]byte(`realm="0"`), "u", "p"); err == nil {
		t.Error("a challenge without a nonce was accepted")
	}
}
