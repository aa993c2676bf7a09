package disk

import (
	"fmt"
	"strconv"
	"time"
)

// dd's numbers are gnulib's human_readable with autoscale, round to
// nearest, a space before the unit, SI prefixes and "B": the functions
// below follow its arithmetic (integer where it is exact, else floating
// point), so a size or rate prints as GNU dd prints it.

const powerLetters = "KMGTPEZY" // index exponent-1; "k" for kilo in base 1000

// HumanSize renders n bytes as dd does in "(1.1 GB, 1.0 GiB)": base 1000
// with SI prefixes, or base 1024 with "KiB", "MiB", ... when iec is true.
func HumanSize(n uint64, iec bool) string {
	base := uint64(1000)
	if iec {
		base = 1024
	}
	return humanExact(n, 0, 0, base)
}

// HumanRate renders bytes moved in d as dd's rate ("441 MB/s"): bytes ×
// 10⁹ / nanoseconds, base 1000, without the "/s".
func HumanRate(bytes uint64, d time.Duration) string {
	const from = uint64(time.Second) // dd's XTIME_PRECISION
	to := uint64(d)
	if to == 0 {
		return "Infinity B"
	}
	if to <= from {
		if from%to == 0 {
			mult := from / to
			if amt := bytes * mult; amt/mult == bytes {
				return humanExact(amt, 0, 0, 1000)
			}
		}
	} else if to%from == 0 {
		div := to / from
		r10 := (bytes % div) * 10
		r2 := (r10 % div) * 2
		rounding := 0
		switch {
		case r2 < div:
			rounding = b2i(0 < r2)
		default:
			rounding = 2 + b2i(div < r2)
		}
		return humanExact(bytes/div, int(r10/div), rounding, 1000)
	}
	damt := float64(bytes) * (float64(from) / float64(to))
	e, exp := 1.0, 0
	for {
		e *= 1000
		exp++
		if !(e*1000 <= damt && exp < len(powerLetters)) {
			break
		}
	}
	damt /= e
	s := strconv.FormatFloat(damt, 'f', 1, 64)
	if len(s) > 4 { // more than "#.#" / "##.#": drop the tenths
		s = strconv.FormatFloat(damt, 'f', 0, 64)
	}
	return s + suffix(exp, false)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// humanExact is human_readable's integer path: amt and its tenths, with
// rounding saying where the rest lies (0 none, 1 below a half, 2 a half,
// 3 above).
func humanExact(amt uint64, tenths, rounding int, base uint64) string {
	exp := 0
	frac := ""
	if base <= amt {
		for {
			r10 := (amt%base)*10 + uint64(tenths)
			r2 := (r10%base)*2 + uint64(rounding>>1)
			amt /= base
			tenths = int(r10 / base)
			if r2 < base {
				rounding = b2i(r2+uint64(rounding) != 0)
			} else {
				rounding = 2 + b2i(base < r2+uint64(rounding))
			}
			exp++
			if !(base <= amt && exp < len(powerLetters)) {
				break
			}
		}
		if amt < 10 {
			if 2 < rounding+(tenths&1) {
				tenths++
				rounding = 0
				if tenths == 10 {
					amt++
					tenths = 0
				}
			}
			if amt < 10 {
				frac = "." + strconv.Itoa(tenths)
				tenths, rounding = 0, 0
			}
		}
	}
	if 5 < tenths+b2i(0 < rounding+int(amt&1)) {
		amt++
		if amt == base && exp < len(powerLetters) {
			exp++
			frac = ".0"
			amt = 1
		}
	}
	return strconv.FormatUint(amt, 10) + frac + suffix(exp, base == 1024)
}

func suffix(exp int, iec bool) string {
	s := " "
	if exp > 0 {
		if !iec && exp == 1 {
			s += "k"
		} else {
			s += powerLetters[exp-1 : exp]
		}
		if iec {
			s += "i"
		}
	}
	return s + "B"
}

// Lines are dd's statistics for a file: "F+P records in", "F+P records
// out" and the transfer line, "N bytes (SI, IEC) copied, S s, R/s" in GNU
// coreutils' exact format (the parenthesis shortened or dropped for sizes
// below 1000 or 1024 bytes, "1 byte copied" for one).
func Lines(bytes, full, partial int64, d time.Duration) []string {
	recs := fmt.Sprintf("%d+%d records", full, partial)
	return []string{recs + " in", recs + " out", Transfer(bytes, d)}
}

// Transfer is dd's transfer line.
func Transfer(bytes int64, d time.Duration) string {
	n := uint64(max(bytes, 0))
	si, iec := HumanSize(n, false), HumanSize(n, true)
	secs := fmt.Sprintf("%.6g s", d.Seconds())
	rate := HumanRate(n, d) + "/s"
	lacks := func(s string) bool { return len(s) >= 2 && s[len(s)-2] == ' ' }
	switch {
	case lacks(si):
		word := "bytes"
		if n == 1 {
			word = "byte"
		}
		return fmt.Sprintf("%d %s copied, %s, %s", n, word, secs, rate)
	case lacks(iec):
		return fmt.Sprintf("%d bytes (%s) copied, %s, %s", n, si, secs, rate)
	}
	return fmt.Sprintf("%d bytes (%s, %s) copied, %s, %s", n, si, iec, secs, rate)
}
