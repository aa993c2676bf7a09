package hwire

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"

	"google.golang.org/protobuf/encoding/protowire"
)

// Kerberos on the NameNode RPC (Hadoop's SaslRpcClient): the connection
// header says auth protocol SASL (-33); the client and the NameNode then
// exchange RpcSaslProto messages under call id -33 (NEGOTIATE, INITIATE with
// the GSSAPI initial context token, CHALLENGE/RESPONSE with the security
// layer, SUCCESS) before the connection context. Only the security layer
// "none" (hadoop.rpc.protection=authentication) is spoken here.

// GSSAPI is the Kerberos side of the handshake (the driver implements it
// with gokrb5, so that this package needs no Kerberos library).
type GSSAPI interface {
	// InitToken returns the initial context token (the KRB5 AP-REQ) for the
	// NameNode's service principal.
	InitToken() ([]byte, error)
	// Unwrap verifies a wrap token of the NameNode and returns its payload.
	Unwrap(token []byte) ([]byte, error)
	// Wrap returns a wrap token carrying payload.
	Wrap(payload []byte) ([]byte, error)
}

const (
	authSASL     = 0xDF // -33
	saslCallID   = -33
	saslSuccess  = 0
	saslNegotiat = 1
	saslInitiate = 2
	saslChalleng = 3
	saslResponse = 4
)

// ErrProtection is returned when a server asks for more protection
// (integrity, privacy) than this package speaks.
var ErrProtection = errors.New("the server requires integrity or privacy, which gobench's own client does not speak")

// NewNameNodeKerberos starts the IPC session on conn authenticated with
// Kerberos (g) as principal (user@REALM, the effective user).
func NewNameNodeKerberos(conn net.Conn, principal string, g GSSAPI) (*NameNode, error) {
	n := &NameNode{conn: conn, r: bufio.NewReaderSize(conn, 64<<10)}
	if _, err := rand.Read(n.clientID[:]); err != nil {
		return nil, err
	}
	n.ClientName = fmt.Sprintf("gobench_%x", n.clientID[:8])
	if _, err := conn.Write([]byte{'h', 'r', 'p', 'c', 9, 0, authSASL}); err != nil {
		return nil, fmt.Errorf("namenode: connection header: %w", err)
	}
	if err := n.saslHandshake(g); err != nil {
		return nil, fmt.Errorf("namenode: SASL GSSAPI: %w", err)
	}
	if err := n.writeContext(principal); err != nil {
		return nil, err
	}
	return n, nil
}

// saslMsg is an RpcSaslProto.
type saslMsg struct {
	state uint64
	token []byte
	auths [][]byte // SaslAuth messages, raw
}

func (n *NameNode) writeSASL(state uint64, token []byte, auths ...[]byte) error {
	b := append(n.wbuf[:0], 0, 0, 0, 0)
	b = n.appendRPCHeader(b, saslCallID, -1)
	m := putUint(nil, 2, state)
	if token != nil {
		m = protowire.AppendTag(m, 3, protowire.BytesType)
		m = protowire.AppendBytes(m, token)
	}
	for _, a := range auths {
		m = putBytes(m, 4, a)
	}
	b = protowire.AppendBytes(b, m)
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	n.wbuf = b
	_, err := n.conn.Write(b)
	return err
}

func (n *NameNode) readSASL() (saslMsg, error) {
	var s saslMsg
	var lb [4]byte
	if _, err := io.ReadFull(n.r, lb[:]); err != nil {
		return s, err
	}
	l := binary.BigEndian.Uint32(lb[:])
	if l > 1<<20 {
		return s, errCorrupt
	}
	m := make([]byte, l)
	if _, err := io.ReadFull(n.r, m); err != nil {
		return s, err
	}
	hdr, k := protowire.ConsumeBytes(m)
	if k < 0 {
		return s, errCorrupt
	}
	var status uint64
	var re RemoteError
	err := each(hdr, func(f field) error {
		switch f.n {
		case 2:
			status = f.x
		case 4:
			re.Class = string(f.v)
		case 5:
			re.Message = string(f.v)
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	if status != statusSuccess {
		re.Method, re.Fatal = "sasl", true
		return s, &re
	}
	body, k := protowire.ConsumeBytes(m[k:])
	if k < 0 {
		return s, errCorrupt
	}
	err = each(body, func(f field) error {
		switch f.n {
		case 2:
			s.state = f.x
		case 3:
			s.token = append([]byte(nil), f.v...)
		case 4:
			s.auths = append(s.auths, append([]byte(nil), f.v...))
		}
		return nil
	})
	return s, err
}

func (n *NameNode) saslHandshake(g GSSAPI) error {
	if err := n.writeSASL(saslNegotiat, nil); err != nil {
		return err
	}
	neg, err := n.readSASL()
	if err != nil {
		return err
	}
	var krb []byte
	var offered []string
	for _, a := range neg.auths {
		var method, mech string
		each(a, func(f field) error {
			switch f.n {
			case 1:
				method = string(f.v)
			case 2:
				mech = string(f.v)
			}
			return nil
		})
		offered = append(offered, method)
		if method == "KERBEROS" && mech == "GSSAPI" {
			krb = a
		}
	}
	if krb == nil {
		return fmt.Errorf("the NameNode offers %v, not KERBEROS", offered)
	}
	tok, err := g.InitToken()
	if err != nil {
		return err
	}
	if err := n.writeSASL(saslInitiate, tok, krb); err != nil {
		return err
	}
	for {
		m, err := n.readSASL()
		if err != nil {
			return err
		}
		switch m.state {
		case saslSuccess:
			return nil
		case saslChalleng:
		default:
			return fmt.Errorf("unexpected SASL state %d", m.state)
		}
		if len(m.token) == 0 {
			if err := n.writeSASL(saslResponse, []byte{}); err != nil {
				return err
			}
			continue
		}
		// The security layer offer (RFC 4752): a bit mask of layers
		// (1 none, 2 integrity, 4 privacy) and the largest buffer.
		offer, err := g.Unwrap(m.token)
		if err != nil {
			return fmt.Errorf("the NameNode's token: %w", err)
		}
		if len(offer) != 4 {
			return fmt.Errorf("security layer offer of %d bytes: %w", len(offer), errCorrupt)
		}
		if offer[0]&1 == 0 {
			return ErrProtection
		}
		resp, err := g.Wrap([]byte{1, 0, 0, 0}) // no security layer
		if err != nil {
			return err
		}
		if err := n.writeSASL(saslResponse, resp); err != nil {
			return err
		}
	}
}

// writeContext sends the IpcConnectionContextProto (call id -3).
func (n *NameNode) writeContext(user string) error {
	b := append(n.wbuf[:0], 0, 0, 0, 0)
	b = n.appendRPCHeader(b, connContextCallID, -1)
	ctx := putMsg(nil, 2, func(m []byte) []byte { return putString(m, 1, user) })
	ctx = putString(ctx, 3, clientProtocol)
	b = protowire.AppendBytes(b, ctx)
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	n.wbuf = b
	if _, err := n.conn.Write(b); err != nil {
		return fmt.Errorf("namenode: connection context: %w", err)
	}
	return nil
}
