package props

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// Byte-size multipliers. Units are binary, as in Hadoop's TestDFSIO and most
// storage tools: 1KB = 1024 bytes.
const (
	KB int64 = 1 << (10 * (iota + 1))
	MB
	GB
	TB
	PB
)

var byteUnits = map[string]int64{
	"b": 1,
	"k": KB, "kb": KB, "kib": KB,
	"m": MB, "mb": MB, "mib": MB,
	"g": GB, "gb": GB, "gib": GB,
	"t": TB, "tb": TB, "tib": TB,
	"p": PB, "pb": PB, "pib": PB,
}

// Bytes returns the value of key as a size in bytes, or def when the key is
// not set. A plain number means bytes; a number may carry a unit (any letter
// case, an optional blank before it): B, K/KB/KiB, M/MB/MiB, G/GB/GiB,
// T/TB/TiB, P/PB/PiB, all binary (1KB = 1024). A fraction is allowed when the
// result is a whole number of bytes ("1.5GB"). Negative sizes are errors.
func (d *Decoder) Bytes(key string, def int64) int64 { return d.BytesUnit(key, def, 1) }

// BytesUnit is Bytes where a plain number counts in unit bytes, e.g. MB for
// TestDFSIO's -size (whose unitless values are megabytes).
func (d *Decoder) BytesUnit(key string, def, unit int64) int64 {
	v, s, ok := d.get(key)
	if !ok {
		return def
	}
	n, err := ParseBytes(s, unit)
	if err != nil {
		allowed := "a size >= 0 in bytes"
		if unit != 1 {
			allowed = "a size >= 0 in " + sizeName(unit)
		}
		allowed += ", or with a binary unit: 300KB, 64MB, 10GB, 1g (1KB = 1024 bytes)"
		if errors.Is(err, ErrRange) {
			d.bad(v, err, allowed, "")
		} else {
			d.bad(v, invalid("invalid size"), allowed, "")
		}
		return def
	}
	return n
}

func sizeName(unit int64) string {
	for _, u := range []struct {
		n    int64
		name string
	}{{PB, "PB"}, {TB, "TB"}, {GB, "GB"}, {MB, "MB"}, {KB, "KB"}} {
		if unit == u.n {
			return u.name
		}
	}
	return "units of " + strconv.FormatInt(unit, 10) + " bytes"
}

// ParseBytes parses a size as [Decoder.Bytes] does, a plain number counting
// in unit bytes. Errors wrap ErrInvalid or ErrRange.
func ParseBytes(s string, unit int64) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, suffix := s[:i], strings.ToLower(strings.TrimLeft(s[i:], " \t"))
	mult := unit
	if suffix != "" {
		m, ok := byteUnits[suffix]
		if !ok {
			return 0, invalid("invalid size unit " + strconv.Quote(s[i:]))
		}
		mult = m
	}
	if num == "" || num == "." {
		return 0, invalid("invalid size")
	}
	if !strings.Contains(num, ".") {
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || mult != 0 && n > math.MaxInt64/mult {
			return 0, outOfRange()
		}
		return n * mult, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, invalid("invalid size")
	}
	x := f * float64(mult)
	if x >= math.MaxInt64 {
		return 0, outOfRange()
	}
	if x != math.Trunc(x) {
		return 0, invalid("not a whole number of bytes")
	}
	return int64(x), nil
}
