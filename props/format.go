package props

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FormatLine renders one entry as a properties-file line "key=value" (no
// newline) that [Parse] reads back as exactly key and value: backslashes,
// separators and blanks in the key, a leading '#' or '!', leading and
// trailing blanks of the value, and control characters are escaped.
// Printable non-ASCII text is written as UTF-8.
func FormatLine(key, value string) string {
	b := make([]byte, 0, len(key)+len(value)+8)
	b = appendEscaped(b, key, true)
	b = append(b, '=')
	b = appendEscaped(b, value, false)
	return string(b)
}

func appendEscaped(b []byte, s string, isKey bool) []byte {
	// Blanks in the trailing run of a value are escaped too, so that they
	// stay visible in a dump.
	trail := len(s)
	for trail > 0 && isBlank(s[trail-1]) {
		trail--
	}
	for i, r := range s {
		switch r {
		case '\\':
			b = append(b, '\\', '\\')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\f':
			b = append(b, '\\', 'f')
		case ' ':
			if isKey || i == 0 || i >= trail {
				b = append(b, '\\')
			}
			b = append(b, ' ')
		case '=', ':':
			if isKey {
				b = append(b, '\\')
			}
			b = append(b, byte(r))
		case '#', '!':
			if isKey && i == 0 {
				b = append(b, '\\')
			}
			b = append(b, byte(r))
		default:
			if r == utf8.RuneError || unicode.IsPrint(r) {
				b = utf8.AppendRune(b, r)
				continue
			}
			// Control and other invisible characters as \uXXXX (UTF-16).
			if r > 0xFFFF {
				r1, r2 := surrogates(r)
				b = appendU(appendU(b, r1), r2)
			} else {
				b = appendU(b, r)
			}
		}
	}
	return b
}

func surrogates(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}

func appendU(b []byte, r rune) []byte {
	const hex = "0123456789ABCDEF"
	return append(b, '\\', 'u', hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
}

// Dump writes the effective configuration, one key per line in key order, as
//
//	recordcount=1000               # workloads/workloada:17
//	threadcount=8                  # -threads
//
// for printing at start and for logs; secrets are redacted ([Redact]).
// Keys and values are escaped as by
// [FormatLine]; the origin comment makes the output a human record, not a
// properties file (Java syntax would take the comment as part of the value).
// It returns the first write error.
func (s *Set) Dump(w io.Writer) error {
	const maxCol = 40
	lines := make([]string, 0, len(s.m))
	col := 0
	for _, k := range s.Keys() {
		l := FormatLine(k, Redact(k, s.m[k].Value))
		lines = append(lines, l)
		if n := utf8.RuneCountInString(l); n > col && n <= maxCol {
			col = n
		}
	}
	var b strings.Builder
	for i, k := range s.Keys() {
		b.Reset()
		b.WriteString(lines[i])
		for n := utf8.RuneCountInString(lines[i]); n < col; n++ {
			b.WriteByte(' ')
		}
		b.WriteString("  # ")
		b.WriteString(s.m[k].Where())
		b.WriteByte('\n')
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}
