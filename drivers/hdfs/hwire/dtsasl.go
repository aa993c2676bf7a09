package hwire

import (
	"bufio"
	"crypto/md5"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// SASL data transfer protection on a DataNode connection (Hadoop's
// SaslDataTransferClient), spoken right after the connection is made: the
// magic number 0xDEADBEEF, then DataTransferEncryptorMessageProto messages
// (status 1, payload 2, message 3), varint-delimited, carrying a DIGEST-MD5
// exchange (RFC 2831) whose user name and password are the block access
// token's identifier and password, base64; the service is hdfs/0. Only the
// QOP auth (dfs.data.transfer.protection=authentication) is spoken here: no
// security layer wraps the data afterwards.

const saslTransferMagic = 0xDEADBEEF

// blockToken is the identifier and password of a TokenProto.
func blockToken(raw []byte) (id, password []byte, err error) {
	err = each(raw, func(f field) error {
		switch f.n {
		case 1:
			id = f.v
		case 2:
			password = f.v
		}
		return nil
	})
	if err == nil && len(id) == 0 {
		err = fmt.Errorf("the NameNode gave no block access token for a SASL-protected DataNode")
	}
	return id, password, err
}

func writeDTMessage(c net.Conn, prefix, payload []byte) error {
	m := putUint(nil, 1, 0) // SUCCESS
	m = putBytes(m, 2, payload)
	b := protowire.AppendVarint(prefix, uint64(len(m)))
	_, err := c.Write(append(b, m...))
	return err
}

func readDTMessage(r *bufio.Reader) ([]byte, error) {
	m, err := readDelimited(r, nil)
	if err != nil {
		return nil, err
	}
	var status uint64
	var payload []byte
	var msg string
	err = each(m, func(f field) error {
		switch f.n {
		case 1:
			status = f.x
		case 2:
			payload = append([]byte(nil), f.v...)
		case 3:
			msg = string(f.v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if status != 0 {
		return nil, fmt.Errorf("DataNode SASL: status %d: %s", status, msg)
	}
	return payload, nil
}

// saslDataTransfer authenticates c (reading through r) with the block
// token tok.
func saslDataTransfer(c net.Conn, r *bufio.Reader, tok []byte) error {
	id, pw, err := blockToken(tok)
	if err != nil {
		return err
	}
	var magic [4]byte
	binary.BigEndian.PutUint32(magic[:], saslTransferMagic)
	if err := writeDTMessage(c, magic[:], []byte{}); err != nil {
		return fmt.Errorf("DataNode SASL: %w", err)
	}
	ch, err := readDTMessage(r)
	if err != nil {
		return err
	}
	d, err := newDigest(ch, base64.StdEncoding.EncodeToString(id), base64.StdEncoding.EncodeToString(pw))
	if err != nil {
		return fmt.Errorf("DataNode SASL: %w", err)
	}
	if err := writeDTMessage(c, nil, []byte(d.response())); err != nil {
		return fmt.Errorf("DataNode SASL: %w", err)
	}
	fin, err := readDTMessage(r)
	if err != nil {
		return err
	}
	if want := "rspauth=" + d.digest(""); string(fin) != want {
		return fmt.Errorf("DataNode SASL: the DataNode's rspauth does not match (is it the DataNode the NameNode named?)")
	}
	return nil
}

// digestMD5 is the client side of one DIGEST-MD5 authentication.
type digestMD5 struct {
	user, pass, realm, nonce, cnonce string
	uri                              string
}

// parseChallenge splits a DIGEST-MD5 challenge into its directives.
func parseChallenge(s string) map[string]string {
	m := map[string]string{}
	for len(s) > 0 {
		s = strings.TrimLeft(s, " ,")
		k, rest, ok := strings.Cut(s, "=")
		if !ok {
			break
		}
		var v string
		if strings.HasPrefix(rest, `"`) {
			rest = rest[1:]
			var b strings.Builder
			for len(rest) > 0 && rest[0] != '"' {
				if rest[0] == '\\' && len(rest) > 1 {
					rest = rest[1:]
				}
				b.WriteByte(rest[0])
				rest = rest[1:]
			}
			v, rest = b.String(), strings.TrimPrefix(rest, `"`)
		} else {
			v, rest, _ = strings.Cut(rest, ",")
		}
		m[strings.ToLower(strings.TrimSpace(k))] = v
		s = rest
	}
	return m
}

func newDigest(challenge []byte, user, pass string) (*digestMD5, error) {
	ch := parseChallenge(string(challenge))
	if ch["nonce"] == "" {
		return nil, fmt.Errorf("DIGEST-MD5 challenge without a nonce: %w", errCorrupt)
	}
	auth := false
	for _, q := range strings.Split(orAuth(ch["qop"]), ",") {
		auth = auth || strings.TrimSpace(q) == "auth"
	}
	if !auth {
		return nil, fmt.Errorf("the DataNode offers qop %q: %w", ch["qop"], ErrProtection)
	}
	var cn [16]byte
	if _, err := rand.Read(cn[:]); err != nil {
		return nil, err
	}
	return &digestMD5{user: user, pass: pass, realm: ch["realm"], nonce: ch["nonce"],
		cnonce: base64.StdEncoding.EncodeToString(cn[:]), uri: "hdfs/0"}, nil
}

func orAuth(q string) string {
	if q == "" {
		return "auth"
	}
	return q
}

func hexMD5(s string) string {
	h := md5.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}

// digest is RFC 2831's response value with A2 = method ":" digest-uri
// ("AUTHENTICATE" for the client's response, "" for the server's rspauth).
func (d *digestMD5) digest(method string) string {
	inner := md5.Sum([]byte(d.user + ":" + d.realm + ":" + d.pass))
	a1 := string(inner[:]) + ":" + d.nonce + ":" + d.cnonce
	a2 := method + ":" + d.uri
	return hexMD5(hexMD5(a1) + ":" + d.nonce + ":00000001:" + d.cnonce + ":auth:" + hexMD5(a2))
}

func (d *digestMD5) response() string {
	return fmt.Sprintf(`charset=utf-8,username="%s",realm="%s",nonce="%s",nc=00000001,cnonce="%s",digest-uri="%s",maxbuf=65536,response=%s,qop=auth`,
		d.user, d.realm, d.nonce, d.cnonce, d.uri, d.digest("AUTHENTICATE"))
}
