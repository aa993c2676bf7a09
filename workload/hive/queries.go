package hive

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Query is one statement the workload times.
type Query struct {
	Name  string // the measurement's name in the report (SCAN, Q2, ...)
	Title string // a line for people
	SQL   string
	// Builtin is the number (1-5) of the field report's query this is, so
	// its answer can be checked against the Go reference; 0 for a user's.
	Builtin int
}

// The field report's five queries (shared/field-reports/000), word for
// word: a filtered count on customers, a group-by on books, a two-table
// join over a date range, a three-table join, and the two-table join
// again.
const (
	sqlScan      = "SELECT COUNT(*) FROM customers WHERE name = 'Asher MATTHEWS'"
	sqlAggregate = "SELECT category,count(*) cnt FROM books GROUP BY category ORDER BY cnt DESC LIMIT 10"
	sqlJoin      = `SELECT tmp.book_category, ROUND(tmp.revenue, 2) AS revenue
FROM (
  SELECT books.category AS book_category, SUM(books.price * transactions.quantity) AS revenue
  FROM books JOIN transactions ON (
    transactions.book_id = books.id
    AND YEAR(transactions.transaction_date) BETWEEN 2008 AND 2010
  )
  GROUP BY books.category
) tmp
ORDER BY revenue DESC LIMIT 10`
	sqlJoin3 = `SELECT tmp.book_category, ROUND(tmp.revenue, 2) AS revenue
FROM (
  SELECT books.category AS book_category, SUM(books.price * transactions.quantity) AS revenue
  FROM books
  JOIN transactions ON (
    transactions.book_id = books.id
  )
  JOIN customers ON (
    transactions.customer_id = customers.id
    AND customers.state IN ('WA', 'CA', 'NY')
  )
  GROUP BY books.category
) tmp
ORDER BY revenue DESC LIMIT 10`
)

// Builtins are the report's five queries, in the report's order, with the
// times the report measured (4 GB per table, one run each).
var Builtins = []Query{
	{Name: "SCAN", Title: "filtered count on customers (report: 33.648 s)", SQL: sqlScan, Builtin: 1},
	{Name: "AGGREGATE", Title: "group-by on books, top 10 categories (report: 53.289 s)", SQL: sqlAggregate, Builtin: 2},
	{Name: "JOIN", Title: "books x transactions, 2008-2010, revenue per category (report: 106.791 s)", SQL: sqlJoin, Builtin: 3},
	{Name: "JOIN3", Title: "books x transactions x customers in WA/CA/NY, revenue per category (report: 214.394 s)", SQL: sqlJoin3, Builtin: 4},
	{Name: "JOIN-AGAIN", Title: "the two-table join again (report: 101.748 s)", SQL: sqlJoin, Builtin: 5},
}

// builtinNames are the accepted names of each built-in query in
// hive.queries (its measurement name, q1..q5, and a lower-case form).
func lookupBuiltin(name string) (Query, bool) {
	n := strings.ToUpper(strings.TrimSpace(name))
	for i, q := range Builtins {
		if n == q.Name || n == fmt.Sprintf("Q%d", i+1) || n == strings.ReplaceAll(q.Name, "-", "_") {
			return q, true
		}
	}
	return Query{}, false
}

func builtinList() string {
	var n []string
	for i, q := range Builtins {
		n = append(n, fmt.Sprintf("%s (q%d)", strings.ToLower(q.Name), i+1))
	}
	return strings.Join(n, ", ")
}

// ParseSQL splits a .sql file into its statements, on semicolons outside
// quotes ('...', "...", `...`) and comments (-- to the end of the line,
// /* ... */). A statement is named by a "-- name: NAME" comment before
// it, else Q1, Q2, ... by position; names are upper-cased and must be
// unique. Comments are kept in the statement text except the name line;
// statements that are only comments are dropped.
func ParseSQL(text string) ([]Query, error) {
	var out []Query
	var cur strings.Builder
	name := ""
	seen := map[string]bool{}
	flush := func() error {
		stmt := trimLeadingComments(cur.String())
		cur.Reset()
		if stmt == "" {
			return nil
		}
		n := name
		name = ""
		if n == "" {
			n = fmt.Sprintf("Q%d", len(out)+1)
		}
		n = strings.ToUpper(n)
		if seen[n] {
			return fmt.Errorf("two statements are named %s", n)
		}
		seen[n] = true
		out = append(out, Query{Name: n, Title: firstLine(stmt), SQL: stmt})
		return nil
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(text) && text[j] != c {
				if text[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return nil, fmt.Errorf("unterminated %c quote in statement %d", c, len(out)+1)
			}
			cur.WriteString(text[i : j+1])
			i = j
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				j = len(text) - i
			}
			line := text[i : i+j]
			if n, ok := nameComment(line); ok {
				if name != "" && !onlyComments(cur.String()) {
					return nil, fmt.Errorf("-- name: %s inside a statement (end the previous one with ;)", n)
				}
				name = n
			} else {
				cur.WriteString(line)
			}
			i += j - 1
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				return nil, errors.New("unterminated /* comment")
			}
			cur.WriteString(text[i : i+2+j+2])
			i += 2 + j + 1
		case c == ';':
			if err := flush(); err != nil {
				return nil, err
			}
		default:
			cur.WriteByte(c)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no statement in the file")
	}
	return out, nil
}

// nameComment recognises "-- name: NAME".
func nameComment(line string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(line, "--")), "name:")
	if !ok {
		return "", false
	}
	n := strings.TrimSpace(rest)
	if n == "" || strings.IndexFunc(n, func(r rune) bool { return unicode.IsSpace(r) || r == ',' }) >= 0 {
		return "", false
	}
	return n, true
}

// trimLeadingComments drops blanks and comments before a statement, and
// blanks after it.
func trimLeadingComments(s string) string {
	for {
		s = strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return ""
			}
			s = s[i+2:]
		default:
			return s
		}
	}
}

// onlyComments reports whether s holds nothing but blanks and comments.
func onlyComments(s string) bool {
	for len(s) > 0 {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		switch {
		case s == "":
			return true
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return true
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return true
			}
			s = s[i+2:]
		default:
			return false
		}
	}
	return true
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "--") {
			if len(l) > 80 {
				l = l[:77] + "..."
			}
			return l
		}
	}
	return ""
}
