package hbclient

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/types"
)

// wrapper makes and checks RFC 4121 Wrap tokens (§4.2.6.2) with the
// context key: signed (integrity) or encrypted (privacy), the SASL
// security layers of hbase.rpc.protection. The send side is used by one
// goroutine at a time, the receive side by another.
type wrapper struct {
	key            types.EncryptionKey
	acceptorSubkey bool   // key is the acceptor's subkey (flag in our tokens)
	seq            uint64 // our next sequence number
	qop            QOP
	maxSend        int // the server's max receive buffer (0: none said)
}

// wrap appends the token for payload to dst, encrypted with seal.
func (w *wrapper) wrap(dst, payload []byte, seal bool) ([]byte, error) {
	et, err := crypto.GetEtype(w.key.KeyType)
	if err != nil {
		return dst, err
	}
	var fl byte
	if w.acceptorSubkey {
		fl |= wrapAcceptorSubky
	}
	if seal {
		fl |= wrapSealed
	}
	hdr := [16]byte{0x05, 0x04, fl, 0xFF}
	binary.BigEndian.PutUint64(hdr[8:], w.seq)
	w.seq++
	if seal { // EC = 0 (no filler), RRC = 0: E(payload | header)
		plain := make([]byte, 0, len(payload)+16)
		plain = append(append(plain, payload...), hdr[:]...)
		_, ct, err := et.EncryptMessage(w.key.KeyValue, plain, keyusage.GSSAPI_INITIATOR_SEAL)
		if err != nil {
			return dst, err
		}
		return append(append(dst, hdr[:]...), ct...), nil
	}
	signed := make([]byte, 0, len(payload)+16) // checksum over payload | header (EC, RRC = 0)
	signed = append(append(signed, payload...), hdr[:]...)
	sum, err := et.GetChecksumHash(w.key.KeyValue, signed, keyusage.GSSAPI_INITIATOR_SEAL)
	if err != nil {
		return dst, err
	}
	binary.BigEndian.PutUint16(hdr[4:], uint16(len(sum)))
	dst = append(append(append(dst, hdr[:]...), payload...), sum...)
	return dst, nil
}

// unwrap checks a token from the server and returns its payload.
func (w *wrapper) unwrap(tok []byte) ([]byte, error) {
	if len(tok) < 16 || tok[0] != 0x05 || tok[1] != 0x04 || tok[3] != 0xFF {
		return nil, errors.New("not a GSS-API wrap token")
	}
	fl := tok[2]
	if fl&wrapFromAcceptor == 0 {
		return nil, errors.New("wrap token not sent by the acceptor")
	}
	ec := int(binary.BigEndian.Uint16(tok[4:]))
	rrc := int(binary.BigEndian.Uint16(tok[6:]))
	data := tok[16:]
	if rrc != 0 && len(data) > 0 { // undo the right rotation
		rrc %= len(data)
		data = append(append(make([]byte, 0, len(data)), data[rrc:]...), data[:rrc]...)
	}
	et, err := crypto.GetEtype(w.key.KeyType)
	if err != nil {
		return nil, err
	}
	hdr := [16]byte{}
	copy(hdr[:], tok[:16])
	hdr[6], hdr[7] = 0, 0 // RRC = 0 in the protected copy
	if fl&wrapSealed != 0 {
		plain, err := crypto.DecryptMessage(data, w.key, keyusage.GSSAPI_ACCEPTOR_SEAL)
		if err != nil {
			return nil, fmt.Errorf("wrap token: %v", err)
		}
		if len(plain) < ec+16 || !bytes.Equal(plain[len(plain)-16:], hdr[:]) {
			return nil, errors.New("wrap token: the encrypted header does not match")
		}
		return plain[:len(plain)-16-ec], nil
	}
	if len(data) < ec {
		return nil, errors.New("wrap token shorter than its checksum")
	}
	payload, sum := data[:len(data)-ec], data[len(data)-ec:]
	hdr[4], hdr[5] = 0, 0 // EC = 0 in the signed copy
	signed := append(append(make([]byte, 0, len(payload)+16), payload...), hdr[:]...)
	want, err := et.GetChecksumHash(w.key.KeyValue, signed, keyusage.GSSAPI_ACCEPTOR_SEAL)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(want, sum) {
		return nil, errors.New("wrap token: bad checksum")
	}
	return payload, nil
}

// saslConn carries the RPC stream in SASL packets (int32 length, wrap
// token) once integrity or privacy is negotiated. Read is used by the
// connection's reader goroutine only, Write by one writer at a time.
type saslConn struct {
	net.Conn
	r    *bufio.Reader
	w    *wrapper
	in   []byte // payload not yet read
	tok  []byte // receive buffer
	wbuf []byte // send buffer
}

func (c *saslConn) Read(p []byte) (int, error) {
	for len(c.in) == 0 {
		var b [4]byte
		if _, err := io.ReadFull(c.r, b[:]); err != nil {
			return 0, err
		}
		n := binary.BigEndian.Uint32(b[:])
		if n > 1<<30 {
			return 0, fmt.Errorf("SASL packet of %d bytes: %w", n, errCorrupt)
		}
		if cap(c.tok) < int(n) {
			c.tok = make([]byte, n)
		}
		c.tok = c.tok[:n]
		if _, err := io.ReadFull(c.r, c.tok); err != nil {
			return 0, err
		}
		in, err := c.w.unwrap(c.tok)
		if err != nil {
			return 0, fmt.Errorf("SASL %s layer: %w", c.w.qop, err)
		}
		c.in = in
	}
	n := copy(p, c.in)
	c.in = c.in[n:]
	return n, nil
}

func (c *saslConn) Write(p []byte) (int, error) {
	chunk := 64 << 10
	if c.w.maxSend > 1024 && c.w.maxSend-128 < chunk {
		chunk = c.w.maxSend - 128 // room for the token's header, checksum, confounder
	}
	done := 0
	for done < len(p) {
		part := p[done:min(len(p), done+chunk)]
		var err error
		c.wbuf, err = c.w.wrap(append(c.wbuf[:0], 0, 0, 0, 0), part, c.w.qop == QOPPrivacy)
		if err != nil {
			return done, fmt.Errorf("SASL %s layer: %w", c.w.qop, err)
		}
		binary.BigEndian.PutUint32(c.wbuf, uint32(len(c.wbuf)-4))
		if _, err := c.Conn.Write(c.wbuf); err != nil {
			return done, err
		}
		done += len(part)
	}
	return done, nil
}
