package props

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sentinel errors found (with errors.Is) inside an [*Error].
var (
	// ErrUnknown marks a key that no consumer understands.
	ErrUnknown = errors.New("unknown property")
	// ErrMissing marks a required key that no layer set.
	ErrMissing = errors.New("required but not set")
	// ErrInvalid marks a value that does not parse as the expected type
	// (integer, number, boolean, duration, size, one of a list).
	ErrInvalid = errors.New("invalid value")
	// ErrRange marks a value that parses but lies outside the allowed range.
	ErrRange = errors.New("out of range")
	// ErrSyntax marks a malformed line in a properties file or a malformed
	// -p argument (inside a [*SyntaxError]).
	ErrSyntax = errors.New("malformed property")
)

// Error describes a bad property: its key, its raw value and where that value
// came from, what went wrong and what would have been accepted. It is shaped
// like strconv.NumError and fs.PathError. It renders as
//
//	property recordcount="10x0" (my.properties:3): invalid integer; allowed: a whole number >= 0
//	property recordcont="1000" (my.properties:4): unknown property (did you mean "recordcount"?)
//	property workload: required but not set
//
// The value and origin are shown when Source is set (that is, when the key
// was present in some layer).
type Error struct {
	Key    string
	Value  string // the raw value, trailing blanks included
	Source string // as in [Value.Source]; empty when the key was not set
	Line   int    // as in [Value.Line]
	// Err is what went wrong. It wraps ErrInvalid, ErrRange, ErrUnknown or
	// ErrMissing for the errors this package records; Fail and Failf
	// callers choose their own.
	Err error
	// Allowed says in words what would have been accepted, e.g.
	// "a whole number >= 0" or "uniform, zipfian, latest". May be empty.
	Allowed string
	// Hint is a suggested replacement: the nearest known key for an
	// unknown key, the nearest allowed value for an enum. May be empty.
	Hint string
}

// Where renders the origin as "file:line" or the bare source.
func (e *Error) Where() string {
	return Value{Source: e.Source, Line: e.Line}.Where()
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("property ")
	b.WriteString(e.Key)
	if e.Source != "" {
		b.WriteByte('=')
		b.WriteString(strconv.Quote(Redact(e.Key, e.Value)))
		b.WriteString(" (")
		b.WriteString(e.Where())
		b.WriteByte(')')
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Allowed != "" {
		b.WriteString("; allowed: ")
		b.WriteString(e.Allowed)
	}
	if e.Hint != "" {
		b.WriteString(" (did you mean ")
		b.WriteString(strconv.Quote(e.Hint))
		b.WriteString("?)")
	}
	return b.String()
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// SyntaxError is a malformed line of a properties file, or a malformed -p
// argument. It renders as
//
//	my.properties:3: malformed property "recordcount": key without "=" or value
//	-p: malformed property "recordcount": missing "=" (want key=value)
type SyntaxError struct {
	Source string // file name, or "-p"
	Line   int    // 1-based line where the entry starts; 0 for -p
	Text   string // the offending text, as written
	Err    error  // wraps ErrSyntax
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString(Value{Source: e.Source, Line: e.Line}.Where())
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns e.Err.
func (e *SyntaxError) Unwrap() error { return e.Err }

// syntaxErr builds the Err of a SyntaxError: its message names the text and
// the reason, and it wraps ErrSyntax.
func syntaxErr(text, reason string) error {
	const max = 80
	if len(text) > max {
		n := max
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		text = text[:n] + "..."
	}
	return &reasonError{msg: ErrSyntax.Error() + " " + strconv.Quote(text) + ": " + reason, err: ErrSyntax}
}

// reasonError is an error with its own message that still matches a sentinel
// with errors.Is.
type reasonError struct {
	msg string
	err error
}

func (e *reasonError) Error() string { return e.msg }
func (e *reasonError) Unwrap() error { return e.err }

// invalid returns an error reading msg (e.g. "invalid integer") that wraps
// ErrInvalid.
func invalid(msg string) error { return &reasonError{msg: msg, err: ErrInvalid} }

// outOfRange returns an error reading "out of range" that wraps ErrRange.
func outOfRange() error { return ErrRange }
