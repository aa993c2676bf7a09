package hbclient

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/types"
)

func testKey() types.EncryptionKey {
	return types.EncryptionKey{KeyType: etypeID.AES256_CTS_HMAC_SHA1_96, KeyValue: bytes.Repeat([]byte{7}, 32)}
}

// acceptorToken builds a wrap token as the server (acceptor) sends it, RFC
// 4121 §4.2.6.2, with the right rotation rrc.
func acceptorToken(t *testing.T, key types.EncryptionKey, payload []byte, seal bool, rrc int) []byte {
	t.Helper()
	et, _ := crypto.GetEtype(key.KeyType)
	fl := byte(wrapFromAcceptor)
	if seal {
		fl |= wrapSealed
	}
	hdr := []byte{0x05, 0x04, fl, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 42}
	var body []byte
	if seal {
		_, ct, err := et.EncryptMessage(key.KeyValue, append(append([]byte{}, payload...), hdr...), keyusage.GSSAPI_ACCEPTOR_SEAL)
		if err != nil {
			t.Fatal(err)
		}
		body = ct
	} else {
		sum, err := et.GetChecksumHash(key.KeyValue, append(append([]byte{}, payload...), hdr...), keyusage.GSSAPI_ACCEPTOR_SEAL)
		if err != nil {
			t.Fatal(err)
		}
		binary.BigEndian.PutUint16(hdr[4:], uint16(len(sum)))
		body = append(append([]byte{}, payload...), sum...)
	}
	if rrc > 0 { // rotate right
		r := rrc % len(body)
		body = append(append([]byte{}, body[len(body)-r:]...), body[:len(body)-r]...)
		binary.BigEndian.PutUint16(hdr[6:], uint16(rrc))
	}
	return append(hdr, body...)
}

func TestWrapTokens(t *testing.T) {
	key := testKey()
	w := &wrapper{key: key, seq: 9}
	payload := []byte("\x06\x00\xff\xffhello hbase")
	for _, seal := range []bool{false, true} {
		for _, rrc := range []int{0, 12, 28} {
			got, err := w.unwrap(acceptorToken(t, key, payload, seal, rrc))
			if err != nil || !bytes.Equal(got, payload) {
				t.Errorf("unwrap seal=%v rrc=%d: %q, %v", seal, rrc, got, err)
			}
		}
		tok := acceptorToken(t, key, payload, seal, 0)
		tok[len(tok)-1] ^= 1
		if _, err := w.unwrap(tok); err == nil {
			t.Errorf("unwrap seal=%v of a tampered token: no error", seal)
		}
	}
	if _, err := w.unwrap([]byte("short")); err == nil {
		t.Error("unwrap of 5 bytes: no error")
	}

	// Our tokens: initiator usage, the sequence number counting up.
	for i, seal := range []bool{false, true} {
		tok, err := w.wrap(nil, payload, seal)
		if err != nil {
			t.Fatal(err)
		}
		if tok[2]&wrapFromAcceptor != 0 || (tok[2]&wrapSealed != 0) != seal || binary.BigEndian.Uint64(tok[8:16]) != uint64(9+i) {
			t.Errorf("wrap seal=%v: header % x", seal, tok[:16])
		}
		if seal {
			plain, err := crypto.DecryptMessage(tok[16:], key, keyusage.GSSAPI_INITIATOR_SEAL)
			if err != nil || !bytes.Equal(plain[:len(payload)], payload) || !bytes.Equal(plain[len(payload):], tok[:16]) {
				t.Errorf("sealed token: %q, %v", plain, err)
			}
		} else {
			et, _ := crypto.GetEtype(key.KeyType)
			hdr := append([]byte{}, tok[:16]...)
			hdr[4], hdr[5] = 0, 0
			ec := int(binary.BigEndian.Uint16(tok[4:]))
			signed := append(append([]byte{}, tok[16:len(tok)-ec]...), hdr...)
			if !bytes.Equal(tok[16:len(tok)-ec], payload) || !et.VerifyChecksum(key.KeyValue, signed, tok[len(tok)-ec:], keyusage.GSSAPI_INITIATOR_SEAL) {
				t.Errorf("signed token does not verify: % x", tok)
			}
		}
	}
}

func TestSASLConnPackets(t *testing.T) {
	key := testKey()
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	c := &saslConn{Conn: client, r: bufio.NewReader(client), w: &wrapper{key: key, qop: QOPPrivacy, maxSend: 2048}}
	data := bytes.Repeat([]byte("0123456789"), 500)
	go func() {
		if n, err := c.Write(data); n != len(data) || err != nil {
			t.Errorf("Write: %d, %v", n, err)
		}
	}()
	// The server side sees packets of at most maxSend-128 payload bytes,
	// each an initiator's sealed token.
	var got []byte
	packets := 0
	for len(got) < len(data) {
		var n [4]byte
		if _, err := io.ReadFull(server, n[:]); err != nil {
			t.Fatal(err)
		}
		tok := make([]byte, binary.BigEndian.Uint32(n[:]))
		if _, err := io.ReadFull(server, tok); err != nil {
			t.Fatal(err)
		}
		plain, err := crypto.DecryptMessage(tok[16:], key, keyusage.GSSAPI_INITIATOR_SEAL)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, plain[:len(plain)-16]...)
		packets++
	}
	if !bytes.Equal(got, data) || packets != 3 {
		t.Errorf("%d packets, data equal %v; want 3, true", packets, bytes.Equal(got, data))
	}
	// Read reassembles the server's packets.
	go func() {
		for _, p := range []string{"abc", "defgh"} {
			tok := acceptorToken(t, key, []byte(p), true, 0)
			server.Write(append(binary.BigEndian.AppendUint32(nil, uint32(len(tok))), tok...))
		}
	}()
	buf := make([]byte, 8)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "abcdefgh" {
		t.Errorf("Read: %q, %v", buf, err)
	}
}

func TestChooseQOP(t *testing.T) {
	k := &Kerberos{QOP: []QOP{QOPPrivacy, QOPIntegrity}}
	if q, err := k.chooseQOP(7); err != nil || q != QOPPrivacy {
		t.Errorf("offer all: %v %v", q, err)
	}
	if q, err := k.chooseQOP(3); err != nil || q != QOPIntegrity {
		t.Errorf("offer auth,int: %v %v", q, err)
	}
	_, err := k.chooseQOP(1)
	if err == nil || !strings.Contains(err.Error(), "hbase.rpc.protection=privacy,integrity") || !strings.Contains(err.Error(), "offers only authentication") {
		t.Errorf("offer auth only: %v", err)
	}
	if q, err := (&Kerberos{}).chooseQOP(1); err != nil || q != QOPAuthentication {
		t.Errorf("default: %v %v", q, err)
	}
}

func TestServerPrincipal(t *testing.T) {
	k := &Kerberos{RegionServerPrincipal: "hbase/_HOST@R", MasterPrincipal: "hm/_HOST@R"}
	for _, c := range []struct{ service, addr, want string }{
		{"ClientService", "RS1.Example.com:16020", "hbase/rs1.example.com@R"},
		{"MasterService", "m:16000", "hm/m@R"},
	} {
		if got, err := k.serverPrincipal(c.service, c.addr); err != nil || got != c.want {
			t.Errorf("%s %s: %q %v, want %q", c.service, c.addr, got, err, c.want)
		}
	}
	if _, err := (&Kerberos{}).serverPrincipal("ClientService", "h:1"); err == nil || !strings.Contains(err.Error(), "hbase.regionserver.kerberos.principal") {
		t.Errorf("no principal: %v", err)
	}
}

// BenchmarkSASLWrap: the cost of hbase.rpc.protection=integrity/privacy per
// 1 KiB packet (the send side; authentication adds nothing per call).
func BenchmarkSASLWrap(b *testing.B) {
	payload := bytes.Repeat([]byte("x"), 1024)
	for _, seal := range []bool{false, true} {
		name := "integrity"
		if seal {
			name = "privacy"
		}
		b.Run(name, func(b *testing.B) {
			w := &wrapper{key: testKey()}
			var buf []byte
			b.SetBytes(int64(len(payload)))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if buf, err = w.wrap(buf[:0], payload, seal); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
