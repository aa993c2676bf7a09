package props

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Parse reads properties in java.util.Properties text syntax from r and
// returns them in file order, each with source and the 1-based line where
// its entry starts. Duplicate keys are all returned; the later one wins when
// they are added to a [Set].
//
// Syntax, as in Java:
//   - an entry is key=value, key: value or key value; the key ends at the
//     first unescaped '=', ':' or blank (space, tab, form feed); blanks around
//     the separator are dropped;
//   - lines whose first non-blank character is '#' or '!' are comments, and
//     blank lines are skipped;
//   - a line ending in an odd number of backslashes continues on the next
//     line, whose leading blanks are dropped;
//   - escapes: \t \n \r \f, \uXXXX (UTF-16, surrogate pairs combined), and
//     a backslash before any other character stands for that character
//     (\=, \:, \#, \!, \\, "\ ").
//
// Deliberate differences from Java:
//   - Input that is valid UTF-8 is read as UTF-8; anything else is read as
//     ISO-8859-1 (Java's encoding), so both kinds of file work. A leading
//     UTF-8 byte-order mark is skipped.
//   - Trailing blanks are kept in [Value.Value], as in Java, but the typed
//     getters of [Decoder] ignore them, so "threadcount=500 " means 500
//     instead of failing as it does in Java.
//   - A key with neither separator nor value (a lone "recordcount") is an
//     error rather than an empty value; write "recordcount=" for that.
//   - An empty key ("=5") and a malformed \uXXXX escape are errors.
//   - A line holding only a backslash is skipped like a blank line (Java
//     skips it too, except at the end of input, where it makes an entry
//     with an empty key).
//
// Every malformed entry is reported, each as a [*SyntaxError], joined with
// errors.Join; the well-formed entries are returned alongside. A read error
// is returned wrapped, with the entries read so far.
func Parse(r io.Reader, source string) ([]Value, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", source, err)
	}
	return parseText(decodeText(data), source)
}

// decodeText turns file bytes into a Go string: UTF-8 when valid (minus a
// BOM), else ISO-8859-1, where every byte is the code point of that value.
func decodeText(data []byte) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if utf8.Valid(data) {
		return string(data)
	}
	var b strings.Builder
	b.Grow(len(data) + len(data)/8)
	for _, c := range data {
		b.WriteRune(rune(c))
	}
	return b.String()
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

func trimLeftBlanks(s string) string {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	return s[i:]
}

// continues reports whether s ends in an odd number of backslashes.
func continues(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitLines splits on \n, \r and \r\n.
func splitLines(s string) []string {
	var lines []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	return lines
}

func parseText(text, source string) ([]Value, error) {
	lines := splitLines(text)
	var vals []Value
	var errs []error
	for i := 0; i < len(lines); i++ {
		l := trimLeftBlanks(lines[i])
		if l == "" || l == `\` || l[0] == '#' || l[0] == '!' {
			// A lone backslash continues nothing into the next line, whose
			// comment or blankness then counts as in Java (JDK 9+).
			continue
		}
		start := i + 1
		logical := l
		if continues(l) {
			var b strings.Builder
			for continues(l) && i+1 < len(lines) {
				b.WriteString(l[:len(l)-1])
				i++
				l = trimLeftBlanks(lines[i])
			}
			b.WriteString(l)
			logical = b.String()
		}
		if continues(logical) { // backslash at end of input: dropped, as in Java
			logical = logical[:len(logical)-1]
		}
		v, err := parseEntry(logical)
		if err != nil {
			errs = append(errs, &SyntaxError{Source: source, Line: start, Text: logical, Err: syntaxErr(logical, err.Error())})
			continue
		}
		v.Source, v.Line = source, start
		vals = append(vals, v)
	}
	return vals, errors.Join(errs...)
}

// parseEntry splits one logical line (leading blanks removed, continuations
// joined) into key and value and unescapes both.
func parseEntry(line string) (Value, error) {
	keyEnd, valStart, hasSep := len(line), len(line), false
	escaped := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !escaped && (c == '=' || c == ':') {
			keyEnd, valStart, hasSep = i, i+1, true
			break
		}
		if !escaped && isBlank(c) {
			keyEnd, valStart = i, i+1
			break
		}
		escaped = c == '\\' && !escaped
	}
	for valStart < len(line) {
		c := line[valStart]
		if !isBlank(c) {
			if hasSep || (c != '=' && c != ':') {
				break
			}
			hasSep = true
		}
		valStart++
	}
	if keyEnd == 0 {
		return Value{}, errors.New("empty key")
	}
	if !hasSep && valStart >= len(line) {
		return Value{}, errors.New(`key without "=" or value (write key= for an empty value)`)
	}
	key, err := unescape(line[:keyEnd])
	if err != nil {
		return Value{}, fmt.Errorf("key: %w", err)
	}
	val, err := unescape(line[valStart:])
	if err != nil {
		return Value{}, fmt.Errorf("value: %w", err)
	}
	return Value{Key: key, Value: val}, nil
}

// unescape applies Java's load-time escapes.
func unescape(s string) (string, error) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			break // lone trailing backslash: dropped
		}
		switch c = s[i]; c {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			r, ok := hex4(s[i+1:])
			if !ok {
				return "", fmt.Errorf(`malformed \uXXXX escape %q`, clip(s[i-1:], 6))
			}
			i += 4
			if utf16.IsSurrogate(r) && strings.HasPrefix(s[i+1:], `\u`) {
				if r2, ok := hex4(s[i+3:]); ok {
					if p := utf16.DecodeRune(r, r2); p != utf8.RuneError {
						r = p
						i += 6
					}
				}
			}
			b.WriteRune(r) // a lone surrogate becomes U+FFFD
		default:
			b.WriteByte(c) // \= \: \\ \# and any other: the character itself
		}
	}
	return b.String(), nil
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// ParseOverride parses a command-line override "key=value" (YCSB's
// -p name=value): it splits at the first '=', so the value may itself contain
// '='. Blanks around the key are dropped; the value is kept as written (the
// typed getters ignore surrounding blanks). No escapes are processed. A
// missing '=' or an empty key is a [*SyntaxError]. The returned Value has the
// given source (usually "-p") and line 0.
func ParseOverride(arg, source string) (Value, error) {
	key, val, ok := strings.Cut(arg, "=")
	key = strings.TrimSpace(key)
	switch {
	case !ok:
		return Value{}, &SyntaxError{Source: source, Text: arg, Err: syntaxErr(arg, `missing "=" (want key=value)`)}
	case key == "":
		return Value{}, &SyntaxError{Source: source, Text: arg, Err: syntaxErr(arg, "empty key (want key=value)")}
	}
	return Value{Key: key, Value: val, Source: source}, nil
}
