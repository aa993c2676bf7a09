package kafka

import (
	"errors"
	"fmt"
	"strings"
)

// jaas is one login module of sasl.jaas.config, as Kafka's Java clients
// parse it (org.apache.kafka.common.security.JaasConfig on a
// StreamTokenizer): "ModuleClass flag key=value ... ;" with exactly one
// module, the flag required, requisite, sufficient or optional (any case),
// values either "quoted" (with backslash escapes) or bare words of letters,
// digits and . - _ $; // and /* */ comments are skipped. Its options hold
// passwords: a jaas is never printed, and parse errors name option keys,
// never values.
type jaas struct {
	module string
	flag   string
	opts   map[string]string
}

// The login modules gobench understands.
const (
	plainModule  = "org.apache.kafka.common.security.plain.PlainLoginModule"
	scramModule  = "org.apache.kafka.common.security.scram.ScramLoginModule"
	krb5Module   = "com.sun.security.auth.module.Krb5LoginModule"
	oauthModule  = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
	ibmKrb5Prefx = "com.ibm.security.auth.module."
)

type jaasTok struct {
	kind byte // 'w' word, 's' quoted string, or the character itself
	text string
}

// tokens splits s as Java's StreamTokenizer does for JaasConfig.
func jaasTokens(s string) ([]jaasTok, error) {
	var toks []jaasTok
	word := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 ||
			c == '.' || c == '-' || c == '_' || c == '$'
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, errors.New("unterminated /* comment")
			}
			i += end + 4
		case word(c):
			j := i
			for j < len(s) && word(s[j]) {
				j++
			}
			toks = append(toks, jaasTok{'w', s[i:j]})
			i = j
		case c == '"' || c == '\'':
			var b strings.Builder
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
					switch s[j] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					case 'r':
						b.WriteByte('\r')
					default:
						b.WriteByte(s[j])
					}
					continue
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, errors.New("unterminated quoted value")
			}
			toks = append(toks, jaasTok{'s', b.String()})
			i = j + 1
		default:
			toks = append(toks, jaasTok{c, string(c)})
			i++
		}
	}
	return toks, nil
}

// parseJAAS parses a sasl.jaas.config value. Errors never quote a value.
func parseJAAS(s string) (jaas, error) {
	toks, err := jaasTokens(s)
	if err != nil {
		return jaas{}, err
	}
	var mods []jaas
	for i := 0; i < len(toks); {
		if toks[i].kind != 'w' {
			what := "a quoted value"
			if toks[i].kind != 's' {
				what = fmt.Sprintf("%q", toks[i].text)
			}
			return jaas{}, fmt.Errorf("expected a login module class name, found %s", what)
		}
		m := jaas{module: toks[i].text, opts: map[string]string{}}
		i++
		if i >= len(toks) || toks[i].kind != 'w' {
			return jaas{}, fmt.Errorf("login module %s: expected a control flag (required, requisite, sufficient, optional)", m.module)
		}
		m.flag = strings.ToLower(toks[i].text)
		switch m.flag {
		case "required", "requisite", "sufficient", "optional":
		default:
			return jaas{}, fmt.Errorf("login module %s: invalid control flag (want required, requisite, sufficient or optional)", m.module)
		}
		i++
		for {
			if i >= len(toks) {
				return jaas{}, fmt.Errorf("login module %s: expected ';' to terminate the login module", m.module)
			}
			if toks[i].kind == ';' {
				i++
				break
			}
			if toks[i].kind != 'w' {
				return jaas{}, fmt.Errorf("login module %s: expected an option name", m.module)
			}
			key := toks[i].text
			if i+2 >= len(toks) || toks[i+1].kind != '=' || (toks[i+2].kind != 'w' && toks[i+2].kind != 's') {
				return jaas{}, fmt.Errorf("login module %s: option %s: expected key=value (quote values with characters other than letters, digits and . - _ $)", m.module, key)
			}
			m.opts[key] = toks[i+2].text
			i += 3
		}
		mods = append(mods, m)
	}
	if len(mods) != 1 {
		return jaas{}, fmt.Errorf("holds %d login modules, want exactly 1 (as Kafka's clients)", len(mods))
	}
	return mods[0], nil
}

// boolOpt reads a JAAS option as Krb5LoginModule does (true in any case is
// true, anything else false).
func (j jaas) boolOpt(key string) bool { return strings.EqualFold(j.opts[key], "true") }
