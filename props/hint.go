package props

import (
	"strings"
	"unicode/utf8"
)

// aliases maps words people commonly write (other tools' flag names,
// plurals) to the YCSB key they mean. An alias is suggested only when its
// target is among the candidates.
var aliases = map[string]string{
	"threads":      "threadcount",
	"thread":       "threadcount",
	"records":      "recordcount",
	"operations":   "operationcount",
	"ops":          "operationcount",
	"opcount":      "operationcount",
	"fields":       "fieldcount",
	"distribution": "requestdistribution",
	"duration":     "maxexecutiontime",
	"time":         "maxexecutiontime",
}

// Nearest returns the candidate that name most likely misspells, or "" when
// none is close enough. Comparison ignores letter case; in order it tries:
// the same name up to case and the separators '.', '_' and '-'; a known alias
// ("threads" -> "threadcount"); the smallest Damerau-Levenshtein distance
// (adjacent transpositions count 1) within 1 edit for names of up to 4
// characters, 2 up to 8, 3 beyond; and the shortest candidate that starts
// with name less a plural "s" (names of 4 characters or more) or contains
// name (6 or more). Ties go to the candidate listed first.
func Nearest(name string, candidates []string) string {
	if name == "" || len(candidates) == 0 {
		return ""
	}
	lower := strings.ToLower(name)
	norm := normalize(lower)
	for _, c := range candidates {
		if normalize(strings.ToLower(c)) == norm {
			return c
		}
	}
	if a, ok := aliases[norm]; ok {
		for _, c := range candidates {
			if c == a {
				return c
			}
		}
	}
	n := utf8.RuneCountInString(name)
	limit := 3
	switch {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := distance(lower, strings.ToLower(c)); d < bestD && d < n {
			best, bestD = c, d
		}
	}
	if best != "" {
		return best
	}
	if n < 4 {
		return ""
	}
	stem := strings.TrimSuffix(lower, "s")
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if (strings.HasPrefix(lc, stem) || n >= 6 && strings.Contains(lc, lower)) && (best == "" || len(c) < len(best)) {
			best = c
		}
	}
	return best
}

func normalize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '_' || r == '-' {
			return -1
		}
		return r
	}, s)
}

// distance is the optimal-string-alignment (restricted Damerau-Levenshtein)
// distance between a and b, counted in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows: two back (for transpositions), previous and current.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
