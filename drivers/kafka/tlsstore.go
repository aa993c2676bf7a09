package kafka

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"software.sslmate.com/src/go-pkcs12"
)

// Key and trust stores as Kafka's Java clients read them
// (ssl.keystore.*, ssl.truststore.*, ssl.key.password): JKS
// (pavlo-v-chernykh/keystore-go), PKCS12 (sslmate go-pkcs12: PBES2/AES as
// openssl 3 and Java 17 write, and the legacy 3DES/RC2) and PEM (a file, or
// the value itself in ssl.keystore.key / ssl.keystore.certificate.chain /
// ssl.truststore.certificates). Errors name the file and the store type,
// never a password.

// storeType normalises ssl.*.type (Java compares case-insensitively).
func storeType(t string) string { return strings.ToUpper(strings.TrimSpace(t)) }

// loadTrust returns the CA pool of a trust store file (or the inline PEM
// certificates when loc is empty).
func loadTrust(loc, password, typ, inline string) (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	var certs []*x509.Certificate
	switch {
	case inline != "":
		c, err := pemCerts([]byte(inline))
		if err != nil {
			return nil, err
		}
		certs = c
	default:
		data, err := os.ReadFile(loc)
		if err != nil {
			return nil, err
		}
		switch storeType(typ) {
		case "PEM":
			if password != "" {
				return nil, errors.New("a PEM trust store takes no password (as in Kafka)")
			}
			if certs, err = pemCerts(data); err != nil {
				return nil, err
			}
		case "PKCS12":
			if certs, err = pkcs12.DecodeTrustStore(data, password); err != nil {
				return nil, fmt.Errorf("PKCS12 trust store: %w", storeErr(err))
			}
		case "JKS":
			ks := keystore.New()
			if err := ks.Load(bytes.NewReader(data), []byte(password)); err != nil {
				return nil, fmt.Errorf("JKS trust store: %w", storeErr(err))
			}
			for _, a := range ks.Aliases() {
				if !ks.IsTrustedCertificateEntry(a) {
					continue
				}
				e, err := ks.GetTrustedCertificateEntry(a)
				if err != nil {
					return nil, fmt.Errorf("JKS trust store entry %q: %w", a, err)
				}
				c, err := x509.ParseCertificate(e.Certificate.Content)
				if err != nil {
					return nil, fmt.Errorf("JKS trust store entry %q: %w", a, err)
				}
				certs = append(certs, c)
			}
		default:
			return nil, fmt.Errorf("store type %q not supported (JKS, PKCS12, PEM)", typ)
		}
	}
	if len(certs) == 0 {
		return nil, errors.New("holds no trusted certificate")
	}
	for _, c := range certs {
		pool.AddCert(c)
	}
	return pool, nil
}

// loadKeyPair returns the client certificate and key of a key store file
// (or inline PEM when loc is empty). keyPass is ssl.key.password; for JKS
// and PKCS12 it defaults to the store password, as in Kafka.
func loadKeyPair(loc, password, typ, keyPass, inlineKey, inlineChain string) (tls.Certificate, error) {
	if keyPass == "" {
		keyPass = password
	}
	if loc == "" {
		return pemKeyPair([]byte(inlineKey), []byte(inlineChain), keyPass)
	}
	data, err := os.ReadFile(loc)
	if err != nil {
		return tls.Certificate{}, err
	}
	switch storeType(typ) {
	case "PEM":
		if password != "" {
			return tls.Certificate{}, errors.New("a PEM key store takes ssl.key.password, not ssl.keystore.password (as in Kafka)")
		}
		return pemKeyPair(data, data, keyPass)
	case "PKCS12":
		key, cert, chain, err := pkcs12.DecodeChain(data, password)
		if err != nil {
			return tls.Certificate{}, fmt.Errorf("PKCS12 key store: %w", storeErr(err))
		}
		out := tls.Certificate{PrivateKey: key, Leaf: cert, Certificate: [][]byte{cert.Raw}}
		for _, c := range chain {
			out.Certificate = append(out.Certificate, c.Raw)
		}
		return out, nil
	case "JKS":
		ks := keystore.New()
		if err := ks.Load(bytes.NewReader(data), []byte(password)); err != nil {
			return tls.Certificate{}, fmt.Errorf("JKS key store: %w", storeErr(err))
		}
		for _, a := range ks.Aliases() {
			if !ks.IsPrivateKeyEntry(a) {
				continue
			}
			e, err := ks.GetPrivateKeyEntry(a, []byte(keyPass))
			if err != nil {
				return tls.Certificate{}, fmt.Errorf("JKS key store entry %q: %w (check ssl.key.password)", a, storeErr(err))
			}
			key, err := x509.ParsePKCS8PrivateKey(e.PrivateKey)
			if err != nil {
				return tls.Certificate{}, fmt.Errorf("JKS key store entry %q: %w", a, err)
			}
			out := tls.Certificate{PrivateKey: key}
			for _, c := range e.CertificateChain {
				out.Certificate = append(out.Certificate, c.Content)
			}
			if len(out.Certificate) == 0 {
				return tls.Certificate{}, fmt.Errorf("JKS key store entry %q has no certificate", a)
			}
			return out, nil
		}
		return tls.Certificate{}, errors.New("JKS key store holds no private key entry")
	}
	return tls.Certificate{}, fmt.Errorf("store type %q not supported (JKS, PKCS12, PEM)", typ)
}

// storeErr keeps a store library's error but makes a wrong password say so.
func storeErr(err error) error {
	s := err.Error()
	if errors.Is(err, pkcs12.ErrIncorrectPassword) || strings.Contains(s, "digest") || strings.Contains(s, "password") {
		return fmt.Errorf("wrong password or corrupt store (%v)", err)
	}
	return err
}

// pemCerts parses every CERTIFICATE block of data.
func pemCerts(data []byte) ([]*x509.Certificate, error) {
	var certs []*x509.Certificate
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, err
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, errors.New("no PEM CERTIFICATE block")
	}
	return certs, nil
}

// pemKeyPair reads a PKCS#8 private key ("PRIVATE KEY", or "ENCRYPTED
// PRIVATE KEY" with keyPass) from keyData and the certificate chain from
// chainData.
func pemKeyPair(keyData, chainData []byte, keyPass string) (tls.Certificate, error) {
	var key any
	for rest := keyData; key == nil; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			return tls.Certificate{}, errors.New("no PEM PRIVATE KEY or ENCRYPTED PRIVATE KEY block")
		}
		var err error
		switch b.Type {
		case "ENCRYPTED PRIVATE KEY":
			if keyPass == "" {
				return tls.Certificate{}, errors.New("the private key is encrypted: set ssl.key.password")
			}
			if key, err = decryptPKCS8(b.Bytes, keyPass); err != nil {
				return tls.Certificate{}, fmt.Errorf("encrypted private key: %w (check ssl.key.password)", err)
			}
		case "PRIVATE KEY":
			if key, err = x509.ParsePKCS8PrivateKey(b.Bytes); err != nil {
				return tls.Certificate{}, fmt.Errorf("private key: %w", err)
			}
		}
	}
	certs, err := pemCerts(chainData)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("certificate chain: %w", err)
	}
	out := tls.Certificate{PrivateKey: key, Leaf: certs[0]}
	for _, c := range certs {
		out.Certificate = append(out.Certificate, c.Raw)
	}
	return out, nil
}
