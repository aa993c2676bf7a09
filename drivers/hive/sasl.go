package hive

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
)

// Thrift's SASL negotiation (TSaslTransport): each message is a status
// byte, a 4-byte big-endian length and the payload.
const (
	saslStart    = 1
	saslOK       = 2
	saslBad      = 3
	saslError    = 4
	saslComplete = 5
)

// saslPlain authenticates with SASL PLAIN (RFC 4616) as Thrift's
// TSaslClientTransport does: START with the mechanism name, then the
// initial response "\x00user\x00password", then the server's COMPLETE.
func saslPlain(c net.Conn, user, password string) error {
	if err := writeSASL(c, saslStart, []byte("PLAIN")); err != nil {
		return err
	}
	if err := writeSASL(c, saslOK, []byte("\x00"+user+"\x00"+password)); err != nil {
		return err
	}
	status, payload, err := readSASL(c)
	if err != nil {
		return err
	}
	switch status {
	case saslComplete:
		return nil
	case saslBad, saslError:
		return fmt.Errorf("authentication refused: %s", payload)
	}
	return fmt.Errorf("unexpected SASL status %d from the server", status)
}

func writeSASL(w io.Writer, status byte, payload []byte) error {
	b := make([]byte, 5+len(payload))
	b[0] = status
	binary.BigEndian.PutUint32(b[1:5], uint32(len(payload)))
	copy(b[5:], payload)
	_, err := w.Write(b)
	return err
}

func readSASL(r io.Reader) (byte, []byte, error) {
	var h [5]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, nil, fmt.Errorf("the server closed the connection during the SASL handshake: %w", err)
		}
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(h[1:])
	if n > 1<<20 {
		return 0, nil, fmt.Errorf("SASL message of %d bytes: not a HiveServer2 SASL answer", n)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return 0, nil, err
	}
	return h[0], p, nil
}
