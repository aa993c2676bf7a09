package hive

import (
	"math"
	"strconv"
	"strings"

	hs "github.com/beltran/gohive/hiveserver"
)

// columnLen returns the number of values in a column.
func columnLen(c *hs.TColumn) int {
	switch {
	case c.BoolVal != nil:
		return len(c.BoolVal.Values)
	case c.ByteVal != nil:
		return len(c.ByteVal.Values)
	case c.I16Val != nil:
		return len(c.I16Val.Values)
	case c.I32Val != nil:
		return len(c.I32Val.Values)
	case c.I64Val != nil:
		return len(c.I64Val.Values)
	case c.DoubleVal != nil:
		return len(c.DoubleVal.Values)
	case c.StringVal != nil:
		return len(c.StringVal.Values)
	case c.BinaryVal != nil:
		return len(c.BinaryVal.Values)
	}
	return 0
}

// isNull reads bit i of a column's null bitmap (least significant bit
// first, as HiveServer2 writes it).
func isNull(nulls []byte, i int) bool {
	return i/8 < len(nulls) && nulls[i/8]&(1<<(i%8)) != 0
}

// render returns value i of column c as beeline prints it: NULL for a null,
// true/false, integers in decimal, doubles and floats as Java's
// Double.toString / Float.toString, everything else (strings, decimals,
// dates, timestamps, complex types) as the server sent it.
func render(c *hs.TColumn, t hs.TTypeId, i int) string {
	switch {
	case c.BoolVal != nil:
		if isNull(c.BoolVal.Nulls, i) {
			return "NULL"
		}
		return strconv.FormatBool(c.BoolVal.Values[i])
	case c.ByteVal != nil:
		if isNull(c.ByteVal.Nulls, i) {
			return "NULL"
		}
		return strconv.Itoa(int(c.ByteVal.Values[i]))
	case c.I16Val != nil:
		if isNull(c.I16Val.Nulls, i) {
			return "NULL"
		}
		return strconv.Itoa(int(c.I16Val.Values[i]))
	case c.I32Val != nil:
		if isNull(c.I32Val.Nulls, i) {
			return "NULL"
		}
		return strconv.Itoa(int(c.I32Val.Values[i]))
	case c.I64Val != nil:
		if isNull(c.I64Val.Nulls, i) {
			return "NULL"
		}
		return strconv.FormatInt(c.I64Val.Values[i], 10)
	case c.DoubleVal != nil:
		if isNull(c.DoubleVal.Nulls, i) {
			return "NULL"
		}
		if t == hs.TTypeId_FLOAT_TYPE {
			return JavaDouble(c.DoubleVal.Values[i], 32)
		}
		return JavaDouble(c.DoubleVal.Values[i], 64)
	case c.StringVal != nil:
		if isNull(c.StringVal.Nulls, i) {
			return "NULL"
		}
		return c.StringVal.Values[i]
	case c.BinaryVal != nil:
		if isNull(c.BinaryVal.Nulls, i) {
			return "NULL"
		}
		return string(c.BinaryVal.Values[i])
	}
	return "NULL"
}

// JavaDouble formats v as Java's Double.toString (bits 64) or
// Float.toString (bits 32) does: the shortest digits that read back as v,
// in plain notation with at least one fraction digit for magnitudes in
// [1e-3, 1e7), else as d.dddE±n; NaN, Infinity, -Infinity.
func JavaDouble(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	e := strconv.FormatFloat(v, 'e', -1, bits) // d.ddde±XX
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	digits := strings.Replace(mant, ".", "", 1)
	if v >= 1e-3 && v < 1e7 {
		var s string
		switch {
		case exp < 0:
			s = "0." + strings.Repeat("0", -exp-1) + digits
		case exp+1 >= len(digits):
			s = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
		default:
			s = digits[:exp+1] + "." + digits[exp+1:]
		}
		return sign + s
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	return sign + digits[:1] + "." + frac + "E" + strconv.Itoa(exp)
}
