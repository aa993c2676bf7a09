package props

import "strings"

// Redacted is what gobench prints instead of a secret's value.
const Redacted = "(redacted)"

// secretWords are the parts of a key whose value must never be printed:
// passwords, JAAS configurations, tokens, credentials, private keys and
// keytab contents (a keytab's path is not a secret; its bytes are).
var secretWords = []string{"password", "passwd", "secret", "jaas", "token", "credential", "keytab.content", "keytab.base64"}

// IsSecret reports whether the value of key is a secret: the key contains
// one of password, passwd, secret, jaas, token, credential (any case), ends
// in ".key" (a PEM private key such as ssl.keystore.key) or holds a keytab's
// content. Every place gobench prints a property's value (the effective
// configuration, warnings, errors, the JSON result, the HTML report, live
// metrics) goes through [Redact].
func IsSecret(key string) bool {
	k := strings.ToLower(key)
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return strings.HasSuffix(k, ".key")
}

// Redact returns value, or [Redacted] when key names a secret.
func Redact(key, value string) string {
	if IsSecret(key) {
		return Redacted
	}
	return value
}

// RedactText replaces, in free text such as a driver's error message, every
// value of set whose key is a secret (values shorter than 4 bytes are left,
// so that "true" or "1" never blank out a message).
func RedactText(set *Set, text string) string {
	if set == nil {
		return text
	}
	for _, k := range set.Keys() {
		if !IsSecret(k) {
			continue
		}
		if v := strings.TrimSpace(set.m[k].Value); len(v) >= 4 {
			text = strings.ReplaceAll(text, v, Redacted)
		}
	}
	return text
}
