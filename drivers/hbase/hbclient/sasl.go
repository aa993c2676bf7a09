package hbclient

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/jcmturner/gofork/encoding/asn1"
	krbclient "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/chksumtype"
	"github.com/jcmturner/gokrb5/v8/iana/flags"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// HBase's SASL exchange (HBaseSaslRpcClient, ServerRpcConnection): after
// the preamble with auth code 81 (Kerberos) the client sends length-
// prefixed SASL tokens; the server answers each one it has an answer for
// with an int32 status (0 success, 1 error: then two Hadoop Writable
// strings, the exception class and message) and a length-prefixed token
// (length -88: fall back to SIMPLE). GSSAPI (RFC 4752) takes three client
// tokens: the AP-REQ (mutual authentication), an empty answer to the
// server's AP-REP, and the wrapped choice of security layer after the
// server's wrapped offer. The server answers the last one with nothing; the
// connection header follows, wrapped if the layer is integrity or privacy.

const (
	authKerberos      = 0x51
	saslSuccess       = 0
	saslError         = 1
	switchToSimple    = -88
	maxSASLToken      = 1 << 20
	clientMaxReceive  = 1 << 24 // the max buffer we announce (3 bytes)
	gssTokAPReq       = "\x01\x00"
	gssTokAPRep       = "\x02\x00"
	gssTokError       = "\x03\x00"
	wrapFromAcceptor  = 0x01
	wrapSealed        = 0x02
	wrapAcceptorSubky = 0x04
)

// handshake runs the SASL GSSAPI exchange on the fresh connection nc to
// addr for service, and returns the connection to use from now on (nc, or
// a wrapper that signs or encrypts every packet) and the connection header
// to send on it. On error nc is returned as it was, for the caller to close.
func (k *Kerberos) handshake(nc net.Conn, addr, service string, codec bool) (net.Conn, []byte, error) {
	cl, err := k.login()
	if err != nil {
		return nc, nil, err
	}
	me := cl.Credentials.CName().PrincipalNameString() + "@" + cl.Credentials.Realm()
	spn, err := k.serverPrincipal(service, addr)
	if err != nil {
		return nc, nil, &AuthError{Principal: me, Err: err}
	}
	authErr := func(format string, a ...any) error {
		return &AuthError{Principal: me, Server: spn, Err: fmt.Errorf(format, a...)}
	}
	connErr := func(step string, err error) error {
		return fmt.Errorf("SASL %s with %s (%s): %w: %w", step, addr, service, ErrConnection, err)
	}
	name, realm := splitPrincipal(spn)
	if got := ticketRealm(cl, name); realm != "" && !strings.EqualFold(realm, got) {
		return nc, nil, authErr("the server principal's realm is %s, but krb5.conf maps its host to %s "+
			"(cross-realm server principals are not supported): fix the principal or krb5.conf's [domain_realm]", realm, got)
	}
	tkt, key, err := cl.GetServiceTicket(name)
	if err != nil {
		return nc, nil, authErr("service ticket: %v", err)
	}
	auth, err := types.NewAuthenticator(cl.Credentials.Domain(), cl.Credentials.CName())
	if err != nil {
		return nc, nil, authErr("authenticator: %v", err)
	}
	auth.Cksum = types.Checksum{CksumType: chksumtype.GSSAPI, Checksum: gssChecksum(
		gssapi.ContextFlagMutual | gssapi.ContextFlagInteg | gssapi.ContextFlagConf | gssapi.ContextFlagSequence)}
	apreq, err := messages.NewAPReq(tkt, key, auth)
	if err != nil {
		return nc, nil, authErr("AP-REQ: %v", err)
	}
	types.SetFlag(&apreq.APOptions, flags.APOptionMutualRequired)
	der, err := apreq.Marshal()
	if err != nil {
		return nc, nil, authErr("AP-REQ: %v", err)
	}

	r := bufio.NewReader(nc)
	msg := append([]byte("HBas\x00"), authKerberos)
	msg = appendToken(msg, gssInitialToken(gssTokAPReq, der))
	if _, err := nc.Write(msg); err != nil {
		return nc, nil, connErr("AP-REQ", err)
	}
	tok, err := readSASLReply(r)
	if err != nil {
		return nc, nil, saslReplyErr(err, authErr, connErr)
	}
	subkey, err := checkAPRep(tok, key, auth)
	if err != nil {
		return nc, nil, authErr("mutual authentication: %v", err)
	}
	w := &wrapper{key: key, seq: uint64(auth.SeqNumber)}
	if subkey.KeyType != 0 {
		w.key, w.acceptorSubkey = subkey, true
	}
	if _, err := nc.Write(appendToken(nil, nil)); err != nil {
		return nc, nil, connErr("final handshake", err)
	}
	if tok, err = readSASLReply(r); err != nil {
		return nc, nil, saslReplyErr(err, authErr, connErr)
	}
	offer, err := w.unwrap(tok)
	if err != nil || len(offer) != 4 {
		return nc, nil, authErr("security layer offer: %v (%d bytes)", err, len(offer))
	}
	qop, err := k.chooseQOP(offer[0])
	if err != nil {
		return nc, nil, authErr("%v", err)
	}
	w.qop, w.maxSend = qop, int(binary.BigEndian.Uint32(offer)&0xFFFFFF)
	choice := binary.BigEndian.AppendUint32(nil, uint32(qop)<<24|(clientMaxReceive-1))
	reply, err := w.wrap(nil, choice, false)
	if err != nil {
		return nc, nil, authErr("security layer: %v", err)
	}
	if _, err := nc.Write(appendToken(nil, reply)); err != nil {
		return nc, nil, connErr("security layer", err)
	}
	hello := appendConnectionHeader(nil, me, service, codec)[len(preamble):]
	if qop == QOPAuthentication {
		if r.Buffered() > 0 {
			return nc, nil, authErr("server sent %d unexpected bytes after the SASL exchange", r.Buffered())
		}
		return nc, hello, nil
	}
	return &saslConn{Conn: nc, r: r, w: w}, hello, nil
}

// ticketRealm is the realm gokrb5 asks for a ticket to the service
// principal name (no realm): krb5.conf's [domain_realm] for its last
// component, else the client's realm.
func ticketRealm(cl *krbclient.Client, name string) string {
	parts := strings.Split(name, "/")
	if r := cl.Config.ResolveRealm(parts[len(parts)-1]); r != "" {
		return r
	}
	return cl.Credentials.Realm()
}

// chooseQOP picks the first protection the client accepts that the
// server's offer (a bit mask) includes.
func (k *Kerberos) chooseQOP(offer byte) (QOP, error) {
	want := k.QOP
	if len(want) == 0 {
		want = []QOP{QOPAuthentication}
	}
	for _, q := range want {
		if offer&byte(q) != 0 {
			return q, nil
		}
	}
	var has, asked []string
	for _, q := range []QOP{QOPAuthentication, QOPIntegrity, QOPPrivacy} {
		if offer&byte(q) != 0 {
			has = append(has, q.String())
		}
	}
	for _, q := range want {
		asked = append(asked, q.String())
	}
	return 0, fmt.Errorf("hbase.rpc.protection=%s, but the server offers only %s; set hbase.rpc.protection to the server's",
		strings.Join(asked, ","), strings.Join(has, ","))
}

// gssChecksum is the authenticator checksum of RFC 4121 §4.1.1: no channel
// bindings, the context flags.
func gssChecksum(ctxFlags uint32) []byte {
	b := make([]byte, 24)
	binary.LittleEndian.PutUint32(b, 16)
	binary.LittleEndian.PutUint32(b[20:], ctxFlags)
	return b
}

// gssInitialToken frames a Kerberos message as a GSS-API token (RFC 2743
// §3.1, RFC 1964 §1.1): [APPLICATION 0] { mech OID, token id, message }.
func gssInitialToken(tokID string, msg []byte) []byte {
	oid, _ := asn1.Marshal(gssapi.OIDKRB5.OID())
	inner := len(oid) + len(tokID) + len(msg)
	b := []byte{0x60}
	b = appendDERLength(b, inner)
	b = append(b, oid...)
	b = append(b, tokID...)
	return append(b, msg...)
}

func appendDERLength(b []byte, n int) []byte {
	switch {
	case n < 0x80:
		return append(b, byte(n))
	case n < 0x100:
		return append(b, 0x81, byte(n))
	case n < 0x10000:
		return append(b, 0x82, byte(n>>8), byte(n))
	default:
		return append(b, 0x83, byte(n>>16), byte(n>>8), byte(n))
	}
}

// parseGSSToken splits a GSS-API initial-context token into its token id
// and message.
func parseGSSToken(b []byte) (tokID string, msg []byte, err error) {
	var oid asn1.ObjectIdentifier
	rest, err := asn1.UnmarshalWithParams(b, &oid, "application,explicit,tag:0")
	if err != nil {
		return "", nil, fmt.Errorf("not a GSS-API token: %v", err)
	}
	if !oid.Equal(gssapi.OIDKRB5.OID()) {
		return "", nil, fmt.Errorf("GSS-API token of mechanism %s, not Kerberos", oid)
	}
	if len(rest) < 2 {
		return "", nil, errors.New("GSS-API token too short")
	}
	return string(rest[:2]), rest[2:], nil
}

// checkAPRep verifies the server's AP-REP (it decrypts with the session key
// and echoes the authenticator's time) and returns the acceptor subkey, if
// any. A KRB-ERROR token becomes its error text.
func checkAPRep(tok []byte, key types.EncryptionKey, auth types.Authenticator) (types.EncryptionKey, error) {
	id, msg, err := parseGSSToken(tok)
	if err != nil {
		return types.EncryptionKey{}, err
	}
	switch id {
	case gssTokAPRep:
	case gssTokError:
		var ke messages.KRBError
		if err := ke.Unmarshal(msg); err != nil {
			return types.EncryptionKey{}, fmt.Errorf("KRB-ERROR: %v", err)
		}
		return types.EncryptionKey{}, errors.New(ke.Error())
	default:
		return types.EncryptionKey{}, fmt.Errorf("unexpected GSS-API token id %x", id)
	}
	var rep messages.APRep
	if err := rep.Unmarshal(msg); err != nil {
		return types.EncryptionKey{}, err
	}
	plain, err := crypto.DecryptEncPart(rep.EncPart, key, keyusage.AP_REP_ENCPART)
	if err != nil {
		return types.EncryptionKey{}, fmt.Errorf("AP-REP does not decrypt with the session key: %v", err)
	}
	var part messages.EncAPRepPart
	if err := part.Unmarshal(plain); err != nil {
		return types.EncryptionKey{}, err
	}
	if part.CTime.Unix() != auth.CTime.Unix() || part.Cusec != auth.Cusec {
		return types.EncryptionKey{}, errors.New("AP-REP does not echo the authenticator's time")
	}
	return part.Subkey, nil
}

// errSASL is the server's SASL error reply.
type errSASL struct{ class, msg string }

func (e *errSASL) Error() string {
	msg := e.msg
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return strings.TrimPrefix(e.class+": "+msg, ": ")
}

var errSwitchToSimple = errors.New("the server does not use Kerberos: it asks the client to fall back to SIMPLE authentication; set hbase.security.authentication=simple")

// saslReplyErr turns a failed reply read into an AuthError (the server said
// no) or a connection error (it went away).
func saslReplyErr(err error, authErr func(string, ...any) error, connErr func(string, error) error) error {
	var se *errSASL
	if errors.As(err, &se) || errors.Is(err, errSwitchToSimple) {
		return authErr("the server refused: %v", err)
	}
	return connErr("reply", err)
}

// readSASLReply reads one server reply: status, then a token.
func readSASLReply(r *bufio.Reader) ([]byte, error) {
	var b [4]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return nil, err
	}
	switch st := binary.BigEndian.Uint32(b[:]); st {
	case saslSuccess:
	case saslError:
		class, err := readWritableString(r)
		if err != nil {
			return nil, err
		}
		msg, err := readWritableString(r)
		if err != nil {
			return nil, err
		}
		return nil, &errSASL{class: class, msg: msg}
	default:
		return nil, fmt.Errorf("SASL status %d: %w", st, errCorrupt)
	}
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return nil, err
	}
	n := int32(binary.BigEndian.Uint32(b[:]))
	if n == switchToSimple {
		return nil, errSwitchToSimple
	}
	if n < 0 || n > maxSASLToken {
		return nil, fmt.Errorf("SASL token of %d bytes: %w", n, errCorrupt)
	}
	tok := make([]byte, n)
	if _, err := io.ReadFull(r, tok); err != nil {
		return nil, err
	}
	return tok, nil
}

// readWritableString reads Hadoop's WritableUtils string: int32 length
// (-1: null), UTF-8 bytes.
func readWritableString(r *bufio.Reader) (string, error) {
	var b [4]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return "", err
	}
	n := int32(binary.BigEndian.Uint32(b[:]))
	if n < 0 {
		return "", nil
	}
	if n > maxSASLToken {
		return "", fmt.Errorf("SASL error string of %d bytes: %w", n, errCorrupt)
	}
	s := make([]byte, n)
	if _, err := io.ReadFull(r, s); err != nil {
		return "", err
	}
	return string(s), nil
}

// appendToken appends an int32-length-prefixed token.
func appendToken(b, tok []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(tok)))
	return append(b, tok...)
}
