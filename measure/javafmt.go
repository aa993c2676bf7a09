package measure

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// FormatJavaDouble renders f as Java's Double.toString does (JDK 19 and
// later, which print the shortest decimal that reads back as f): at least one
// digit after the point, plain notation for magnitudes in [1e-3, 1e7),
// computerized scientific notation otherwise ("1.423930225E7", "1.0E-4"),
// and "NaN", "Infinity", "-Infinity", "0.0", "-0.0".
func FormatJavaDouble(f float64) string { return formatJava(f, 64) }

// FormatJavaFloat renders f as Java's Float.toString does: the same rules
// as [FormatJavaDouble] with the shortest digits that read back as the
// float32 (TestDFSIO prints some of its figures as floats).
func FormatJavaFloat(f float32) string { return formatJava(float64(f), 32) }

// formatJava is Double.toString (bits 64) or Float.toString (bits 32).
func formatJava(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	var b strings.Builder
	if f < 0 {
		b.WriteByte('-')
		f = -f
	}
	// Shortest round-trip digits d1.d2d3...e±x.
	e := strconv.FormatFloat(f, 'e', -1, bits)
	if len(e) > 1 && e[1] == 'e' {
		// One shortest digit: Java picks the decimal closest to f among
		// those of one or two digits that read back as f (so the smallest
		// subnormal prints as 4.9E-324, not 5.0E-324).
		if two := strconv.FormatFloat(f, 'e', 1, bits); two[2] != '0' {
			if back, err := strconv.ParseFloat(two, bits); err == nil && back == f {
				e = two
			}
		}
	}
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.Replace(mant, ".", "", 1)
	if f >= 1e-3 && f < 1e7 {
		if exp >= 0 {
			intLen := exp + 1
			if len(digits) <= intLen {
				b.WriteString(digits)
				b.WriteString(strings.Repeat("0", intLen-len(digits)))
				b.WriteString(".0")
			} else {
				b.WriteString(digits[:intLen])
				b.WriteByte('.')
				b.WriteString(digits[intLen:])
			}
		} else {
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -exp-1))
			b.WriteString(digits)
		}
		return b.String()
	}
	b.WriteByte(digits[0])
	b.WriteByte('.')
	if len(digits) > 1 {
		b.WriteString(digits[1:])
	} else {
		b.WriteByte('0')
	}
	b.WriteByte('E')
	b.WriteString(strconv.Itoa(exp))
	return b.String()
}

// FormatDecimal2 renders f as Java's DecimalFormat("#.##") in an English
// locale: at most two fraction digits rounded half-even on the exact binary
// value, no trailing zeros, no grouping, "NaN" and "∞" for the special
// values.
func FormatDecimal2(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "-∞"
	}
	s := strconv.FormatFloat(f, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		// DecimalFormat keeps the sign of a negative value rounded to zero.
		return "-0"
	}
	return s
}

// javaStringHash is Java's String.hashCode: s[0]*31^(n-1) + ... + s[n-1]
// over UTF-16 code units, in 32-bit wrapping arithmetic.
func javaStringHash(s string) int32 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	return h
}

// javaSpread is ConcurrentHashMap.spread: (h ^ h>>>16) & 0x7fffffff.
func javaSpread(h int32) int32 {
	u := uint32(h)
	return int32((u ^ u>>16) & 0x7fffffff)
}

// ycsbStatusDescriptions are the descriptions of Java YCSB's Status
// constants. Status.hashCode mixes the description with the name, and the
// per-block return-code map is keyed by Status, so its iteration order
// depends on them.
var ycsbStatusDescriptions = map[string]string{
	"OK":                  "The operation completed successfully.",
	"ERROR":               "The operation failed.",
	"TIMEOUT":             "The operation timeout",
	"NOT_FOUND":           "The requested record was not found.",
	"NOT_IMPLEMENTED":     "The operation is not implemented for the current binding.",
	"UNEXPECTED_STATE":    "The operation reported success, but the result was not as expected.",
	"BAD_REQUEST":         "The request was not valid.",
	"FORBIDDEN":           "The operation is forbidden.",
	"SERVICE_UNAVAILABLE": "Dependant service for the current binding is not available.",
	"BATCHED_OK":          "The operation has been batched by the binding to be executed later.",
}

// javaStatusHash is YCSB's Status.hashCode for the status called name:
// 31*(31 + description.hashCode()) + name.hashCode(). Names YCSB does not
// define are hashed with a null description.
func javaStatusHash(name string) int32 {
	var dh int32
	if d, ok := ycsbStatusDescriptions[name]; ok {
		dh = javaStringHash(d)
	}
	return 31*(31+dh) + javaStringHash(name)
}

// javaMapOrder returns the indexes of hashes in the order a
// java.util.concurrent.ConcurrentHashMap created with the default capacity
// iterates them when the keys were inserted in slice order: by bin
// (spread(h) & (n-1)) and within a bin by insertion, including the
// reordering that happens when the table doubles after 3/4 of it is used
// (transfer keeps the longest tail that moves together and prepends the
// other nodes in reverse). Bins are never treeified here: Java only does so
// for tables of 64 bins or more with 8 keys in one bin.
func javaMapOrder(hashes []int32) []int {
	n := 16
	table := make([][]int, n)
	for i, h := range hashes {
		b := int(javaSpread(h)) & (n - 1)
		table[b] = append(table[b], i)
		if i+1 >= n-n/4 { // addCount: size >= sizeCtl triggers a resize
			n *= 2
			table = javaTransfer(table, hashes, n)
		}
	}
	var out []int
	for _, bin := range table {
		out = append(out, bin...)
	}
	return out
}

// javaTransfer splits every bin of a table into the doubled table of size n
// as ConcurrentHashMap.transfer does.
func javaTransfer(old [][]int, hashes []int32, n int) [][]int {
	half := n / 2
	next := make([][]int, n)
	for i, bin := range old {
		if len(bin) == 0 {
			continue
		}
		bit := func(k int) int { return int(javaSpread(hashes[k])) & half }
		// lastRun: the start of the longest suffix whose nodes all go to the
		// same half; it is moved as is.
		runBit, lastRun := bit(bin[0]), 0
		for p := 1; p < len(bin); p++ {
			if b := bit(bin[p]); b != runBit {
				runBit, lastRun = b, p
			}
		}
		var lo, hi []int
		if runBit == 0 {
			lo = slicesClone(bin[lastRun:])
		} else {
			hi = slicesClone(bin[lastRun:])
		}
		for p := 0; p < lastRun; p++ {
			k := bin[p]
			if bit(k) == 0 {
				lo = append([]int{k}, lo...)
			} else {
				hi = append([]int{k}, hi...)
			}
		}
		next[i], next[i+half] = lo, hi
	}
	return next
}

func slicesClone(s []int) []int { return append([]int(nil), s...) }

// ordinal renders a percentile the way YCSB names its report lines: an
// integral value gets an English ordinal suffix (1st, 2nd, 3rd, 11th, 22nd,
// 50th, 99th), anything else Java's Double.toString (99.9).
func ordinal(p float64) string {
	if p != math.Trunc(p) || math.IsInf(p, 0) || math.IsNaN(p) {
		return FormatJavaDouble(p)
	}
	j := int64(p)
	if math.Abs(p) >= 1<<31 {
		// Java's Double.intValue saturates to the int range.
		if p > 0 {
			j = math.MaxInt32
		} else {
			j = math.MinInt32
		}
	}
	s := strconv.FormatInt(j, 10)
	switch j % 100 {
	case 11, 12, 13, -11, -12, -13:
		return s + "th"
	}
	r := j % 10
	if r < 0 {
		// Java would index its suffix array with a negative value and throw;
		// a negative percentile is meaningless anyway.
		return s + "th"
	}
	return s + [...]string{"th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"}[r]
}

// FormatJavaFixed renders f as Java's String.format("%.<prec>f", f): the
// shortest decimal that round-trips (Double.toString's digits) rounded
// half-up to prec fraction digits, which differs from Go's %.*f (rounding
// the exact binary value) when those digits end in a 5.
func FormatJavaFixed(f float64, prec int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		switch {
		case math.IsNaN(f):
			return "NaN"
		case f > 0:
			return "Infinity"
		}
		return "-Infinity"
	}
	neg := math.Signbit(f)
	// Shortest round-trip digits d1 d2 ... dn with value 0.d1d2...dn × 10^exp.
	e := strconv.FormatFloat(math.Abs(f), 'e', -1, 64) // d.ddddde±x
	mant, expPart, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expPart)
	digits := []byte(strings.Replace(mant, ".", "", 1))
	point := exp + 1 // digits before the decimal point
	// Pad so that there are point+prec+1 digits to round on.
	for point < 0 {
		digits = append([]byte{'0'}, digits...)
		point++
	}
	keep := point + prec
	for len(digits) <= keep {
		digits = append(digits, '0')
	}
	roundUp := digits[keep] >= '5'
	digits = digits[:keep]
	if roundUp {
		i := len(digits) - 1
		for ; i >= 0; i-- {
			if digits[i] < '9' {
				digits[i]++
				break
			}
			digits[i] = '0'
		}
		if i < 0 {
			digits = append([]byte{'1'}, digits...)
			point++
		}
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if point == 0 {
		b.WriteByte('0')
	} else {
		b.Write(digits[:point])
	}
	if prec > 0 {
		b.WriteByte('.')
		b.Write(digits[point:])
	}
	return b.String()
}
