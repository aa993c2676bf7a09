package props

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

type kv struct {
	key, val string
	line     int
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []kv
	}{
		{"equals", "recordcount=1000\n", []kv{{"recordcount", "1000", 1}}},
		{"colon", "recordcount: 1000", []kv{{"recordcount", "1000", 1}}},
		{"blank separator", "recordcount 1000", []kv{{"recordcount", "1000", 1}}},
		{"tab and form feed", "a\t\f1\nb\f=\f2", []kv{{"a", "1", 1}, {"b", "2", 2}}},
		{"blanks around separator", "  key   =   v  ", []kv{{"key", "v  ", 1}}},
		{"blank then colon", "key :v", []kv{{"key", "v", 1}}},
		{"only first separator consumed", "key==v", []kv{{"key", "=v", 1}}},
		{"second separator after blank", "key = :v", []kv{{"key", ":v", 1}}},
		{"value may contain separators", "url=http://h:1/a=b c", []kv{{"url", "http://h:1/a=b c", 1}}},
		{"empty value with separator", "label=\nx:", []kv{{"label", "", 1}, {"x", "", 2}}},
		{"trailing blanks kept", "threadcount=500 \t", []kv{{"threadcount", "500 \t", 1}}},
		{"comments and blank lines", "# c\n! c\n   # c\n\n \t\nk=v\n", []kv{{"k", "v", 6}}},
		{"hash inside value", "k=a#b !c", []kv{{"k", "a#b !c", 1}}},
		{"continuation", "k=a\\\n   b\\\n\tc\nnext=1", []kv{{"k", "abc", 1}, {"next", "1", 4}}},
		{"continuation keeps comment chars", "k=a\\\n#b", []kv{{"k", "a#b", 1}}},
		{"continuation into key", "rec\\\n  ordcount=5", []kv{{"recordcount", "5", 1}}},
		{"even backslashes do not continue", "k=a\\\\\nx=1", []kv{{"k", `a\`, 1}, {"x", "1", 2}}},
		{"empty continuation line ends entry", "k=a\\\n\nx=1", []kv{{"k", "a", 1}, {"x", "1", 3}}},
		{"backslash at end of input dropped", "k=a\\", []kv{{"k", "a", 1}}},
		{"lone backslash line then comment", "\\\n# c\nk=v", []kv{{"k", "v", 3}}},
		{"lone backslash line then blank", "  \\\n\nk=v\n\\\n", []kv{{"k", "v", 3}}},
		{"comment line does not continue", "# c\\\nk=v", []kv{{"k", "v", 2}}},
		{"CRLF and CR line ends", "a=1\r\nb=2\rc=3", []kv{{"a", "1", 1}, {"b", "2", 2}, {"c", "3", 3}}},
		{"escapes", `k=\t\n\r\f\=\:\\\#\!\q\ x`, []kv{{"k", "\t\n\r\f=:\\#!q x", 1}}},
		{"escaped leading blank kept", `k=\  v`, []kv{{"k", "  v", 1}}},
		{"escaped separators in key", `a\=b\:c\ d=1`, []kv{{"a=b:c d", "1", 1}}},
		{"unicode escape", `k=caf\u00e9 \u20AC`, []kv{{"k", "café €", 1}}},
		{"surrogate pair", `k=\uD83D\uDE00`, []kv{{"k", "😀", 1}}},
		{"lone surrogate", `k=\uD83Dx`, []kv{{"k", "\uFFFDx", 1}}},
		{"utf-8 text", "k=café ☕", []kv{{"k", "café ☕", 1}}},
		{"latin-1 text", "k=caf\xe9", []kv{{"k", "café", 1}}},
		{"utf-8 bom skipped", "\xef\xbb\xbfk=v", []kv{{"k", "v", 1}}},
		{"duplicate keys all returned", "k=1\nk=2", []kv{{"k", "1", 1}, {"k", "2", 2}}},
		{"line numbers after continuation", "a=1\\\n2\\\n3\n\n# x\nb=4", []kv{{"a", "123", 1}, {"b", "4", 6}}},
		{"empty input", "", nil},
	}
	for _, tt := range tests {
		vals, err := Parse(strings.NewReader(tt.in), "f.properties")
		if err != nil {
			t.Errorf("%s: Parse(%q) error: %v", tt.name, tt.in, err)
			continue
		}
		var got []kv
		for _, v := range vals {
			if v.Source != "f.properties" {
				t.Errorf("%s: Parse(%q): source %q", tt.name, tt.in, v.Source)
			}
			got = append(got, kv{v.Key, v.Value, v.Line})
		}
		if !equalKV(got, tt.want) {
			t.Errorf("%s: Parse(%q) = %+v, want %+v", tt.name, tt.in, got, tt.want)
		}
	}
}

func equalKV(a, b []kv) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		want []string // one message per bad line, in order
		good int      // well-formed entries still returned
	}{
		{"recordcount\n", []string{`f.properties:1: malformed property "recordcount": key without "=" or value (write key= for an empty value)`}, 0},
		{"ok=1\n  recordcount   \n", []string{`f.properties:2: malformed property "recordcount   ": key without "=" or value (write key= for an empty value)`}, 1},
		{"=5\n:6", []string{
			`f.properties:1: malformed property "=5": empty key`,
			`f.properties:2: malformed property ":6": empty key`}, 0},
		{`k=\u12`, []string{`f.properties:1: malformed property "k=\\u12": value: malformed \uXXXX escape "\\u12"`}, 0},
		{`k\uzzzz=1`, []string{`f.properties:1: malformed property "k\\uzzzz=1": key: malformed \uXXXX escape "\\uzzzz"`}, 0},
		{"a=1\nbad\nb=2\\\n  \\u00zz\nc=3\n=x", []string{
			`f.properties:2: malformed property "bad": key without "=" or value (write key= for an empty value)`,
			`f.properties:3: malformed property "b=2\\u00zz": value: malformed \uXXXX escape "\\u00zz"`,
			`f.properties:6: malformed property "=x": empty key`}, 2},
	}
	for _, tt := range tests {
		vals, err := Parse(strings.NewReader(tt.in), "f.properties")
		if err == nil {
			t.Errorf("Parse(%q): no error", tt.in)
			continue
		}
		if got, want := err.Error(), strings.Join(tt.want, "\n"); got != want {
			t.Errorf("Parse(%q) error:\n%s\nwant:\n%s", tt.in, got, want)
		}
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q): error does not wrap ErrSyntax", tt.in)
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Source != "f.properties" || se.Line == 0 {
			t.Errorf("Parse(%q): error %#v is not a *SyntaxError with source and line", tt.in, se)
		}
		if len(vals) != tt.good {
			t.Errorf("Parse(%q) returned %d entries, want %d", tt.in, len(vals), tt.good)
		}
	}
}

func TestParseErrorClipsLongLines(t *testing.T) {
	long := strings.Repeat("x", 100)
	_, err := Parse(strings.NewReader(long), "f")
	want := `f:1: malformed property "` + strings.Repeat("x", 80) + `...": key without "=" or value (write key= for an empty value)`
	if err == nil || err.Error() != want {
		t.Errorf("Parse(100 x) error = %v, want %s", err, want)
	}
}

func TestParseReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Parse(iotest.ErrReader(boom), "x.properties")
	if !errors.Is(err, boom) || err.Error() != "read x.properties: boom" {
		t.Errorf("Parse(failing reader) = %v, want wrapped boom", err)
	}
}

func TestParseOverride(t *testing.T) {
	tests := []struct {
		arg      string
		key, val string
		err      string
	}{
		{"recordcount=1000", "recordcount", "1000", ""},
		{"a=b=c", "a", "b=c", ""},
		{"label=", "label", "", ""},
		{" k =v ", "k", "v ", ""},
		{"recordcount", "", "", `-p: malformed property "recordcount": missing "=" (want key=value)`},
		{"=5", "", "", `-p: malformed property "=5": empty key (want key=value)`},
	}
	for _, tt := range tests {
		v, err := ParseOverride(tt.arg, "-p")
		if tt.err != "" {
			if err == nil || err.Error() != tt.err || !errors.Is(err, ErrSyntax) {
				t.Errorf("ParseOverride(%q) error = %v, want %s", tt.arg, err, tt.err)
			}
			continue
		}
		if err != nil || v != (Value{Key: tt.key, Value: tt.val, Source: "-p"}) {
			t.Errorf("ParseOverride(%q) = %+v, %v; want %q=%q", tt.arg, v, err, tt.key, tt.val)
		}
	}
}

func TestFormatLineRoundTrip(t *testing.T) {
	tests := []struct{ key, val, line string }{
		{"recordcount", "1000", "recordcount=1000"},
		{"a b=c:d", " lead", `a\ b\=c\:d=\ lead`},
		{"#k", "#v", `\#k=#v`},
		{"!k", "x\\y", `\!k=x\\y`},
		{"k", "500 ", `k=500\ `},
		{"k", "a\tb\nc\rd\fe", `k=a\tb\nc\rd\fe`},
		{"k", "\x00\u00a0é😀", `k=\u0000\u00A0é😀`},
		{"k", "\U000E0001", `k=\uDB40\uDC01`}, // invisible, beyond the BMP: a surrogate pair
		{"k", "", "k="},
		{"k", "=v", "k==v"},
	}
	for _, tt := range tests {
		line := FormatLine(tt.key, tt.val)
		if line != tt.line {
			t.Errorf("FormatLine(%q, %q) = %q, want %q", tt.key, tt.val, line, tt.line)
		}
		vals, err := Parse(strings.NewReader(line), "x")
		if err != nil || len(vals) != 1 || vals[0].Key != tt.key || vals[0].Value != tt.val {
			t.Errorf("Parse(FormatLine(%q, %q)) = %+v, %v", tt.key, tt.val, vals, err)
		}
	}
}

// BenchmarkParse measures parsing a workload-template-sized file (set-up
// cost only; props is never on the per-operation path).
func BenchmarkParse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# a comment line of some length, as workload files have many\n")
	for i := 0; i < 40; i++ {
		sb.WriteString("some.property" + itoa(i) + " = value " + itoa(i*7) + "\n")
	}
	in := sb.String()
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := Parse(strings.NewReader(in), "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSecretsAreRedacted(t *testing.T) {
	for key, secret := range map[string]bool{
		"sasl.jaas.config": true, "ssl.keystore.password": true, "kafka.sasl.password": true, "hbase.token": true,
		"ssl.keystore.key": true, "fs.s3a.secret.key": true, "Credential": true,
		"recordcount": false, "hbase.keytab.file": false, "kafka.brokers": false, "keyvalue": false,
	} {
		if IsSecret(key) != secret {
			t.Errorf("IsSecret(%q) = %v, want %v", key, !secret, secret)
		}
	}
	e := &Error{Key: "sasl.jaas.config", Value: `org.apache.kafka.common.security.plain.PlainLoginModule required password="hunter2";`, Source: "-p", Err: ErrUnknown}
	if strings.Contains(e.Error(), "hunter2") {
		t.Errorf("error prints the secret: %s", e)
	}
	var s Set
	s.Add(Value{Key: "ssl.key.password", Value: "hunter2", Source: "f"}, Value{Key: "threadcount", Value: "8", Source: "f"})
	var b strings.Builder
	if err := s.Dump(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "hunter2") || !strings.Contains(b.String(), "threadcount=8") {
		t.Errorf("Dump:\n%s", b.String())
	}
	if got := RedactText(&s, "login failed for password hunter2 at host"); strings.Contains(got, "hunter2") {
		t.Errorf("RedactText left the secret: %s", got)
	}
}
