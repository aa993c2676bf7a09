package measure

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The expected values in this file were produced by Java 25 (Double.toString,
// String.hashCode, ConcurrentHashMap, DecimalFormat("#.##")) and YCSB's
// Status.hashCode; inputs are given as IEEE-754 bit patterns so that the
// Go side sees exactly the double Java printed.

func TestFormatJavaDouble(t *testing.T) {
	tests := []struct {
		bits uint64
		want string
	}{
		{0x4081500000000000, "554.0"},
		{0x4058ba5db07d982f, "98.91196834817013"},
		{0x416b28c8c8000000, "1.423930225E7"},
		{0x3f1a36e2eb1c432d, "1.0E-4"},
		{0x3f50624dd2f1a9fc, "0.001"},
		{0x416312d000000000, "1.0E7"},
		{0x416312cfe0000000, "9999999.0"},
		{0x3fb999999999999a, "0.1"},
		{0x4059000000000000, "100.0"},
		{0x3f60624dd2f1a9fc, "0.002"},
		{0x40fe240c9fbe76c9, "123456.789"},
		{0xbff8000000000000, "-1.5"},
		{0x3fd3333333333333, "0.3"},
		{0x3fd3333333333334, "0.30000000000000004"},
		{0x3fd5555555555555, "0.3333333333333333"},
		{0x41678c29dccccccd, "1.23456789E7"},
		{0x3f202e4b6ce5dc68, "1.2345E-4"},
		{0x44b52d02c7e14af6, "1.0E23"},
		{0x44c52d02c7e14af6, "2.0E23"},
		{0x7fefffffffffffff, "1.7976931348623157E308"},
		{0x0000000000000001, "4.9E-324"},
		{0x0000000000000000, "0.0"},
		{0x8000000000000000, "-0.0"},
		{0x444b1ae4d6e2ef50, "1.0E21"},
		{0x3f50624dd2f1a9fb, "9.999999999999998E-4"},
		{0x3ff0000000000000, "1.0"},
		{0x4132d68700000000, "1234567.0"},
		{0x3f06ce789e774eec, "4.35E-5"},
		{0x3f847ae147ae147b, "0.01"},
		{0x447c7e83209e90b2, "8.41E21"},
		{0x3ee4f8b588e368f1, "1.0E-5"},
		{0x421bf08eb0000000, "3.0E10"},
		{0x3fe0000000000000, "0.5"},
		{0x4079c80000000000, "412.5"},
		{0x3fbbda86342986f7, "0.10880316518298715"},
	}
	for _, tt := range tests {
		f := math.Float64frombits(tt.bits)
		if got := FormatJavaDouble(f); got != tt.want {
			t.Errorf("FormatJavaDouble(%v) = %q, want %q", f, got, tt.want)
		}
	}
	for _, tt := range []struct {
		f    float64
		want string
	}{{math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"}} {
		if got := FormatJavaDouble(tt.f); got != tt.want {
			t.Errorf("FormatJavaDouble(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

func TestFormatDecimal2(t *testing.T) {
	tests := []struct {
		bits uint64
		want string
	}{
		{0x0000000000000000, "0"},
		{0x3fc0000000000000, "0.12"},
		{0x3fc147ae147ae148, "0.14"},
		{0x406569999999999a, "171.3"},
		{0x4070411eb851eb85, "260.07"},
		{0x40b39de666666666, "5021.9"},
		{0x3ff0147ae147ae14, "1"},
		{0x4005666666666666, "2.67"},
		{0x416312d00028f5c3, "10000000.01"},
		{0x4058ffef9db22d0e, "100"},
		{0xbf50624dd2f1a9fc, "-0"},
		{0x4028000000000000, "12"},
		{0x3fe0000000000000, "0.5"},
		{0x4132d687e4189375, "1234567.89"},
		{0x7ff8000000000000, "NaN"},
		{0x7ff0000000000000, "∞"},
		{0x3f8eb851eb851eb8, "0.01"},
		{0x3f9999999999999a, "0.03"},
		{0x4040aaaaaaaaaaab, "33.33"},
	}
	for _, tt := range tests {
		f := math.Float64frombits(tt.bits)
		if got := FormatDecimal2(f); got != tt.want {
			t.Errorf("FormatDecimal2(%v) = %q, want %q", f, got, tt.want)
		}
	}
}

func TestJavaStringHash(t *testing.T) {
	tests := []struct {
		s      string
		hash   int32
		bucket int32
	}{
		{"READ", 2511254, 0},
		{"DELETE", 2012838315, 2},
		{"READ-MODIFY-WRITE", -356482109, 3},
		{"CLEANUP", 1574756996, 8},
		{"UPDATE", -1785516855, 10},
		{"INSERT", -2130463047, 10},
		{"SCAN", 2539133, 11},
		{"READ-FAILED", -1914778540, 10},
		{"UPDATE-FAILED", -1708031551, 0},
		{"INSERT-FAILED", -723588655, 15},
		{"SCAN-FAILED", 1224498573, 1},
		{"DELETE-FAILED", -416853345, 8},
		{"VERIFY", -1766622087, 10},
		{"SCAN-LATENCY-PER-RECORD", -917911360, 9},
		{"Intended-READ", -3918376, 12},
		{"Intended-UPDATE", 625543307, 2},
		{"READ-NOT_FOUND", 1360842591, 3},
		{"READ-MODIFY-WRITE-FAILED", -1621279353, 10},
		{"hello", 99162322, 11},
		{"polygenelubricants", -2147483648, 0},
		{"Aa", 2112, 0},
		{"BB", 2112, 0},
		{"é€", 15587, 3},
	}
	for _, tt := range tests {
		h := javaStringHash(tt.s)
		if h != tt.hash {
			t.Errorf("javaStringHash(%q) = %d, want %d", tt.s, h, tt.hash)
		}
		if b := javaSpread(h) & 15; b != tt.bucket {
			t.Errorf("bucket(%q) = %d, want %d", tt.s, b, tt.bucket)
		}
	}
}

func TestJavaMapOrder(t *testing.T) {
	tests := []struct{ insert, want string }{
		{"UPDATE,READ,CLEANUP", "READ,CLEANUP,UPDATE"},
		{"INSERT,CLEANUP", "CLEANUP,INSERT"},
		{"SCAN,INSERT,CLEANUP,READ", "READ,CLEANUP,INSERT,SCAN"},
		{"INSERT,UPDATE,READ,SCAN", "READ,INSERT,UPDATE,SCAN"},
		{"UPDATE,INSERT,READ,SCAN", "READ,UPDATE,INSERT,SCAN"},
		{"READ,DELETE,READ-MODIFY-WRITE,CLEANUP,UPDATE,INSERT,SCAN,READ-FAILED,UPDATE-FAILED,INSERT-FAILED,SCAN-FAILED,DELETE-FAILED,VERIFY,SCAN-LATENCY-PER-RECORD,Intended-READ,Intended-UPDATE,READ-NOT_FOUND,READ-MODIFY-WRITE-FAILED,hello,polygenelubricants,Aa,BB,é€", "polygenelubricants,Aa,BB,Intended-UPDATE,READ-MODIFY-WRITE,READ-NOT_FOUND,é€,SCAN-LATENCY-PER-RECORD,READ-FAILED,VERIFY,INSERT-FAILED,READ,UPDATE-FAILED,SCAN-FAILED,DELETE,CLEANUP,DELETE-FAILED,INSERT,UPDATE,READ-MODIFY-WRITE-FAILED,SCAN,hello,Intended-READ"},
		{"READ,UPDATE,INSERT,SCAN,DELETE,READ-MODIFY-WRITE,CLEANUP,READ-FAILED,UPDATE-FAILED,INSERT-FAILED,SCAN-FAILED,DELETE-FAILED,VERIFY,SCAN-LATENCY-PER-RECORD", "READ-MODIFY-WRITE,SCAN-LATENCY-PER-RECORD,READ-FAILED,VERIFY,INSERT-FAILED,READ,UPDATE-FAILED,SCAN-FAILED,DELETE,CLEANUP,DELETE-FAILED,INSERT,UPDATE,SCAN"},
	}
	for _, tt := range tests {
		keys := strings.Split(tt.insert, ",")
		hashes := make([]int32, len(keys))
		for i, k := range keys {
			hashes[i] = javaStringHash(k)
		}
		var got []string
		for _, i := range javaMapOrder(hashes) {
			got = append(got, keys[i])
		}
		if g := strings.Join(got, ","); g != tt.want {
			t.Errorf("javaMapOrder(%s)\n got %s\nwant %s", tt.insert, g, tt.want)
		}
	}
}

func TestJavaStatusOrder(t *testing.T) {
	tests := []struct {
		name string
		hash int32
	}{
		{"OK", 975615059}, {"ERROR", -306229504}, {"TIMEOUT", 574566025},
		{"NOT_FOUND", -945631943}, {"NOT_IMPLEMENTED", 402466344},
		{"UNEXPECTED_STATE", -1925370251}, {"BAD_REQUEST", 1225150720},
		{"FORBIDDEN", -640598601}, {"SERVICE_UNAVAILABLE", 2100225815},
		{"BATCHED_OK", -270038898}, {"CUSTOM", 1999209266},
	}
	var names []string
	var hashes []int32
	for _, tt := range tests {
		if got := javaStatusHash(tt.name); got != tt.hash {
			t.Errorf("javaStatusHash(%q) = %d, want %d", tt.name, got, tt.hash)
		}
		names = append(names, tt.name)
		hashes = append(hashes, tt.hash)
	}
	order := func(idx []int) string {
		var s []string
		for _, i := range idx {
			s = append(s, names[i])
		}
		return strings.Join(s, ",")
	}
	// 11 keys: no resize.
	want := "OK,NOT_IMPLEMENTED,TIMEOUT,BAD_REQUEST,FORBIDDEN,UNEXPECTED_STATE,SERVICE_UNAVAILABLE,BATCHED_OK,NOT_FOUND,CUSTOM,ERROR"
	if got := order(javaMapOrder(hashes)); got != want {
		t.Errorf("status order\n got %s\nwant %s", got, want)
	}
}

func TestOrdinal(t *testing.T) {
	tests := []struct {
		p    float64
		want string
	}{
		{50, "50th"}, {95, "95th"}, {99, "99th"}, {1, "1st"}, {2, "2nd"}, {3, "3rd"},
		{4, "4th"}, {11, "11th"}, {12, "12th"}, {13, "13th"}, {21, "21st"}, {22, "22nd"},
		{23, "23rd"}, {100, "100th"}, {101, "101st"}, {111, "111th"}, {0, "0th"},
		{99.9, "99.9"}, {99.99, "99.99"}, {0.5, "0.5"}, {99.999, "99.999"},
	}
	for _, tt := range tests {
		if got := ordinal(tt.p); got != tt.want {
			t.Errorf("ordinal(%v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

// TestFormatJavaDoubleCorpus compares against Java 25's Double.toString for
// 600 pseudo-random doubles (testdata/javadouble.txt, generated once with
// java.util.Random(42): arbitrary bit patterns, values around the plain /
// scientific boundaries, and report-like ratios).
func TestFormatJavaDoubleCorpus(t *testing.T) {
	data, err := os.ReadFile("testdata/javadouble.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		hexBits, want, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		bits, err := strconv.ParseUint(hexBits, 16, 64)
		if err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		f := math.Float64frombits(bits)
		if got := FormatJavaDouble(f); got != want {
			t.Errorf("FormatJavaDouble(%v) [bits %s] = %q, want %q", f, hexBits, got, want)
		}
		n++
	}
	if n < 500 {
		t.Errorf("only %d corpus lines", n)
	}
}

func TestFormatJavaFloat(t *testing.T) {
	for _, c := range []struct {
		in   float32
		want string
	}{{10000, "10000.0"}, {1.048576e7, "1.048576E7"}, {15.311584, "15.311584"}, {176.768, "176.768"},
		{0.0005, "5.0E-4"}, {1.4e-45, "1.4E-45"}, {0, "0.0"}} {
		if got := FormatJavaFloat(c.in); got != c.want {
			t.Errorf("FormatJavaFloat(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestFormatJavaFixedPrecisions: String.format("%.Nf", v) as Java 17.0.15
// prints it, at the precisions Kafka's perf tools use (0 to 6).
func TestFormatJavaFixedPrecisions(t *testing.T) {
	tests := []struct {
		v    float64
		prec int
		want string
	}{
		{0.125, 2, "0.13"}, // an exact tie: half up (Go's %.2f gives 0.12)
		{0.375, 2, "0.38"},
		{2.5, 0, "3"},
		{1.005, 2, "1.01"}, // 1.00499999... in binary; Java rounds the digits 1.005
		{9.995, 2, "10.00"},
		{9.9951, 2, "10.00"},
		{9.9951, 3, "9.995"},
		{0.15, 1, "0.2"},
		{2.675, 2, "2.68"},
		{1.0005, 3, "1.001"},
		{199.973337, 6, "199.973337"},
		{0, 4, "0.0000"},
		{-1.25, 1, "-1.3"},
		{-0.04, 1, "-0.0"},
		{-0.04, 0, "-0"},
		{123456789.5, 0, "123456790"},
		{123456789.5, 1, "123456789.5"},
		{12345678.125, 1, "12345678.1"},
		{1e-7, 4, "0.0000"},
	}
	for _, c := range tests {
		if got := FormatJavaFixed(c.v, c.prec); got != c.want {
			t.Errorf("FormatJavaFixed(%v, %d) = %q, want %q", c.v, c.prec, got, c.want)
		}
	}
	for v, want := range map[float64]string{math.NaN(): "NaN", math.Inf(1): "Infinity", math.Inf(-1): "-Infinity"} {
		if got := FormatJavaFixed(v, 2); got != want {
			t.Errorf("FormatJavaFixed(%v, 2) = %q, want %q", v, got, want)
		}
	}
}
