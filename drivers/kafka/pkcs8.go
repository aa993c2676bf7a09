package kafka

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"fmt"
	"hash"
	"unicode/utf16"
)

// Encrypted PKCS#8 private keys (PEM "ENCRYPTED PRIVATE KEY", as Kafka's
// PEM key stores hold them with ssl.key.password): PBES2 (PBKDF2 with
// HMAC-SHA1/224/256/384/512, AES-128/192/256-CBC or DES-EDE3-CBC; what
// openssl pkcs8 -topk8 and Java write today) and PKCS#12's
// pbeWithSHAAnd3-KeyTripleDES-CBC (openssl -v1 PBE-SHA1-3DES). The
// standard library decrypts neither.

var (
	oidPBES2       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 13}
	oidPBKDF2      = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 5, 12}
	oidPBESHA13DES = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 1, 3}
	oidDESEDE3CBC  = asn1.ObjectIdentifier{1, 2, 840, 113549, 3, 7}
	oidAES128CBC   = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 2}
	oidAES192CBC   = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 22}
	oidAES256CBC   = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 1, 42}
	oidHMACSHA1    = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 7}
	hmacPRFs       = map[string]func() hash.Hash{
		"1.2.840.113549.2.7": sha1.New, "1.2.840.113549.2.8": sha256.New224, "1.2.840.113549.2.9": sha256.New,
		"1.2.840.113549.2.10": sha512.New384, "1.2.840.113549.2.11": sha512.New,
	}
)

type encryptedPKCS8 struct {
	Algo pkix.AlgorithmIdentifier
	Data []byte
}

type pbes2Params struct {
	KDF    pkix.AlgorithmIdentifier
	Scheme pkix.AlgorithmIdentifier
}

type pbkdf2Params struct {
	Salt       []byte
	Iterations int
	KeyLength  int                      `asn1:"optional"`
	PRF        pkix.AlgorithmIdentifier `asn1:"optional"`
}

type pkcs12PBEParams struct {
	Salt       []byte
	Iterations int
}

var errKeyPassword = errors.New("wrong key password or corrupt key")

// decryptPKCS8 decrypts an EncryptedPrivateKeyInfo (DER) with password and
// parses the private key inside.
func decryptPKCS8(der []byte, password string) (any, error) {
	var info encryptedPKCS8
	if rest, err := asn1.Unmarshal(der, &info); err != nil || len(rest) != 0 {
		return nil, errors.New("not an encrypted PKCS#8 private key")
	}
	var block cipher.Block
	var iv []byte
	switch {
	case info.Algo.Algorithm.Equal(oidPBES2):
		var p pbes2Params
		if _, err := asn1.Unmarshal(info.Algo.Parameters.FullBytes, &p); err != nil {
			return nil, fmt.Errorf("PBES2 parameters: %w", err)
		}
		if !p.KDF.Algorithm.Equal(oidPBKDF2) {
			return nil, fmt.Errorf("PBES2 key derivation %v not supported (want PBKDF2)", p.KDF.Algorithm)
		}
		var kp pbkdf2Params
		if _, err := asn1.Unmarshal(p.KDF.Parameters.FullBytes, &kp); err != nil {
			return nil, fmt.Errorf("PBKDF2 parameters: %w", err)
		}
		prf := sha1.New
		if len(kp.PRF.Algorithm) > 0 && !kp.PRF.Algorithm.Equal(oidHMACSHA1) {
			if prf = hmacPRFs[kp.PRF.Algorithm.String()]; prf == nil {
				return nil, fmt.Errorf("PBKDF2 PRF %v not supported", kp.PRF.Algorithm)
			}
		}
		var keyLen int
		var newCipher func([]byte) (cipher.Block, error)
		switch s := p.Scheme.Algorithm; {
		case s.Equal(oidAES128CBC):
			keyLen, newCipher = 16, aes.NewCipher
		case s.Equal(oidAES192CBC):
			keyLen, newCipher = 24, aes.NewCipher
		case s.Equal(oidAES256CBC):
			keyLen, newCipher = 32, aes.NewCipher
		case s.Equal(oidDESEDE3CBC):
			keyLen, newCipher = 24, des.NewTripleDESCipher
		default:
			return nil, fmt.Errorf("PBES2 cipher %v not supported (AES-CBC, DES-EDE3-CBC)", s)
		}
		if _, err := asn1.Unmarshal(p.Scheme.Parameters.FullBytes, &iv); err != nil {
			return nil, fmt.Errorf("PBES2 cipher IV: %w", err)
		}
		key, err := pbkdf2.Key(prf, password, kp.Salt, kp.Iterations, keyLen)
		if err != nil {
			return nil, fmt.Errorf("PBKDF2: %w", err)
		}
		if block, err = newCipher(key); err != nil {
			return nil, err
		}
	case info.Algo.Algorithm.Equal(oidPBESHA13DES):
		var p pkcs12PBEParams
		if _, err := asn1.Unmarshal(info.Algo.Parameters.FullBytes, &p); err != nil {
			return nil, fmt.Errorf("PBE parameters: %w", err)
		}
		pw := bmpZ(password)
		key := pkcs12KDF(sha1.New, 64, pw, p.Salt, p.Iterations, 1, 24)
		iv = pkcs12KDF(sha1.New, 64, pw, p.Salt, p.Iterations, 2, 8)
		var err error
		if block, err = des.NewTripleDESCipher(key); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("key encryption %v not supported (PBES2 or pbeWithSHAAnd3-KeyTripleDES-CBC)", info.Algo.Algorithm)
	}
	if len(iv) != block.BlockSize() || len(info.Data) == 0 || len(info.Data)%block.BlockSize() != 0 {
		return nil, errKeyPassword
	}
	plain := make([]byte, len(info.Data))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(plain, info.Data)
	n := int(plain[len(plain)-1])
	if n == 0 || n > block.BlockSize() {
		return nil, errKeyPassword
	}
	for _, b := range plain[len(plain)-n:] {
		if int(b) != n {
			return nil, errKeyPassword
		}
	}
	k, err := x509.ParsePKCS8PrivateKey(plain[:len(plain)-n])
	if err != nil {
		return nil, errKeyPassword
	}
	return k, nil
}

// bmpZ is password as a zero-terminated big-endian UTF-16 string, the
// password format of PKCS#12's key derivation.
func bmpZ(s string) []byte {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 0, 2*len(u)+2)
	for _, r := range u {
		b = append(b, byte(r>>8), byte(r))
	}
	return append(b, 0, 0)
}

// pkcs12KDF is the key derivation of RFC 7292 appendix B.2: n bytes for
// purpose id (1 key, 2 IV, 3 MAC key) from hash h with block size v.
func pkcs12KDF(h func() hash.Hash, v int, pw, salt []byte, iter int, id byte, n int) []byte {
	fill := func(src []byte) []byte {
		if len(src) == 0 {
			return nil
		}
		out := make([]byte, v*((len(src)+v-1)/v))
		for i := range out {
			out[i] = src[i%len(src)]
		}
		return out
	}
	d := make([]byte, v)
	for i := range d {
		d[i] = id
	}
	ib := append(fill(salt), fill(pw)...)
	var out []byte
	for len(out) < n {
		hh := h()
		hh.Write(d)
		hh.Write(ib)
		a := hh.Sum(nil)
		for j := 1; j < iter; j++ {
			hh.Reset()
			hh.Write(a)
			a = hh.Sum(a[:0])
		}
		out = append(out, a...)
		b := make([]byte, v)
		for i := range b {
			b[i] = a[i%len(a)]
		}
		for off := 0; off < len(ib); off += v {
			carry := 1
			for k := v - 1; k >= 0; k-- {
				s := int(ib[off+k]) + int(b[k]) + carry
				ib[off+k] = byte(s)
				carry = s >> 8
			}
		}
	}
	return out[:n]
}
