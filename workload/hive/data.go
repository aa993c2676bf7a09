package hive

import (
	"math/bits"
	"strconv"
)

// GeneratorVersion names the data generator's definition (algorithm and
// word lists). Data sets with the same version, seed and row counts are
// byte-identical on every machine and Go version.
const GeneratorVersion = 1

// Table is one of the three generated tables.
type Table int

// The tables, in the order they are generated and loaded.
const (
	Books Table = iota
	Customers
	Transactions
	numTables
)

var tableNames = [numTables]string{"books", "customers", "transactions"}

// String is the table's name in Hive.
func (t Table) String() string { return tableNames[t] }

// Tables lists the tables in order.
func Tables() []Table { return []Table{Books, Customers, Transactions} }

// Each table's DDL columns: what the report's five queries need, plus the
// descriptive columns a real table has.
var tableColumns = [numTables]string{
	"id BIGINT, title STRING, author STRING, category STRING, price DECIMAL(8,2)",
	"id BIGINT, name STRING, street STRING, city STRING, state STRING, zip STRING",
	"id BIGINT, customer_id BIGINT, book_id BIGINT, quantity INT, transaction_date TIMESTAMP",
}

// Columns returns t's column list as in CREATE TABLE.
func (t Table) Columns() string { return tableColumns[t] }

// Delimiter separates the fields of the generated text files.
const Delimiter = '|'

// The transactions' time span: 2000-01-01 00:00:00 to 2020-12-31 23:59:59 UTC.
const (
	epoch2000 = 946684800 // 2000-01-01T00:00:00Z in Unix seconds
	spanSecs  = 662774400 // seconds from 2000-01-01 to 2021-01-01 (7671 days)
	salt      = 0x9e3779b97f4a7c15
)

// Dataset is a generated data set: the seed and the rows of each table.
// Every row is a pure function of (seed, table, id), ids 1..Rows[t], so
// any part of a table can be generated alone, in parallel, in any order.
type Dataset struct {
	Seed uint64
	Rows [numTables]int64
}

// rng is a counter-based generator: a SplitMix64 stream started from a hash
// of (seed, table, id). It needs no state beyond one word, allocates
// nothing, and gives the same numbers on every platform (integer
// arithmetic only).
type rng struct{ x uint64 }

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func newRng(seed uint64, t Table, id int64) rng {
	return rng{x: mix(seed*salt ^ mix(uint64(t)+1)*0xd1b54a32d192ed03 ^ mix(uint64(id)))}
}

func (r *rng) next() uint64 {
	r.x += salt
	return mix(r.x)
}

// below returns a number in [0, n) (n > 0).
func (r *rng) below(n int64) int64 {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int64(hi)
}

// weighted picks an index with probability weight[i] / sum(weights).
func (r *rng) weighted(w []int64, total int64) int {
	x := r.below(total)
	for i, v := range w {
		if x < v {
			return i
		}
		x -= v
	}
	return len(w) - 1
}

func sum(w []int64) int64 {
	var s int64
	for _, v := range w {
		s += v
	}
	return s
}

var (
	catTotal   = sum(catWeights[:])
	stateTotal = sum(stateWeights[:])
	qtyTotal   = sum(quantityWeights[:])
	tierTotal  = func() int64 {
		var s int64
		for _, t := range priceTiers {
			s += t.weight
		}
		return s
	}()
	tierWeights = func() []int64 {
		w := make([]int64, len(priceTiers))
		for i, t := range priceTiers {
			w[i] = t.weight
		}
		return w
	}()
)

// Book is one row of books.
type Book struct {
	ID                    int64
	Adjective, Noun       uint8 // title "The <adjective> <noun>"
	AuthorFirst, AuthorLn uint8
	Category              uint8
	PriceCents            int64
}

// Customer is one row of customers.
type Customer struct {
	ID                      int64
	First, Last             uint8
	Number                  int32 // street number
	Street, Kind, City, Zip int32
	State                   uint8
}

// Transaction is one row of transactions.
type Transaction struct {
	ID, CustomerID, BookID int64
	Quantity               int64
	Time                   int64 // Unix seconds, UTC
}

// Name is the customer's name as stored ("Asher MATTHEWS").
func (c Customer) Name() string { return firstNames[c.First] + " " + lastNames[c.Last] }

// CategoryName is the book's category.
func (b Book) CategoryName() string { return categories[b.Category] }

// StateName is the customer's state code.
func (c Customer) StateName() string { return states[c.State] }

// Year is the transaction's calendar year (UTC).
func (t Transaction) Year() int {
	y, _, _ := civil(t.Time / 86400)
	return y
}

// Book returns row id of books.
func (d *Dataset) Book(id int64) Book {
	r := newRng(d.Seed, Books, id)
	b := Book{ID: id}
	b.Adjective = uint8(r.below(int64(len(adjectives))))
	b.Noun = uint8(r.below(int64(len(nouns))))
	b.AuthorFirst = uint8(r.below(int64(len(firstNames))))
	b.AuthorLn = uint8(r.below(int64(len(lastNames))))
	b.Category = uint8(r.weighted(catWeights[:], catTotal))
	tier := priceTiers[r.weighted(tierWeights, tierTotal)]
	p := tier.lo + r.below(tier.hi-tier.lo+1)
	if r.below(4) != 0 {
		p = p/100*100 + 99
		if p > tier.hi {
			p = tier.hi
		}
	}
	b.PriceCents = p
	return b
}

// Customer returns row id of customers.
func (d *Dataset) Customer(id int64) Customer {
	r := newRng(d.Seed, Customers, id)
	c := Customer{ID: id}
	c.First = uint8(r.below(int64(len(firstNames))))
	c.Last = uint8(r.below(int64(len(lastNames))))
	c.Number = int32(1 + r.below(9999))
	c.Street = int32(r.below(int64(len(streets))))
	c.Kind = int32(r.below(int64(len(streetKinds))))
	c.City = int32(r.below(int64(len(cities))))
	c.State = uint8(r.weighted(stateWeights[:], stateTotal))
	c.Zip = int32(r.below(99000)) + 1000
	return c
}

// Transaction returns row id of transactions: a uniformly chosen customer,
// a book chosen with a skew towards low ids (bestsellers: id = 1 +
// floor(n·u²)), a quantity (mostly 1), and a time uniform over 2000-2020.
func (d *Dataset) Transaction(id int64) Transaction {
	r := newRng(d.Seed, Transactions, id)
	t := Transaction{ID: id}
	t.CustomerID = 1 + r.below(max(d.Rows[Customers], 1))
	nb := uint64(max(d.Rows[Books], 1))
	u := r.next()
	uu, _ := bits.Mul64(u, u)   // u² / 2^64
	bi, _ := bits.Mul64(uu, nb) // floor(n·u²)
	t.BookID = 1 + int64(bi)
	t.Quantity = 1 + int64(r.weighted(quantityWeights[:], qtyTotal))
	t.Time = epoch2000 + r.below(spanSecs)
	return t
}

// AppendBook appends b as one line of the books file.
func AppendBook(dst []byte, b Book) []byte {
	dst = strconv.AppendInt(dst, b.ID, 10)
	dst = append(dst, Delimiter)
	dst = append(dst, "The "...)
	dst = append(dst, adjectives[b.Adjective]...)
	dst = append(dst, ' ')
	dst = append(dst, nouns[b.Noun]...)
	dst = append(dst, Delimiter)
	dst = append(dst, firstNames[b.AuthorFirst]...)
	dst = append(dst, ' ')
	dst = append(dst, lastNames[b.AuthorLn][:1]...)
	dst = appendLower(dst, lastNames[b.AuthorLn][1:])
	dst = append(dst, Delimiter)
	dst = append(dst, categories[b.Category]...)
	dst = append(dst, Delimiter)
	dst = AppendCents(dst, b.PriceCents)
	return append(dst, '\n')
}

// AppendCustomer appends c as one line of the customers file.
func AppendCustomer(dst []byte, c Customer) []byte {
	dst = strconv.AppendInt(dst, c.ID, 10)
	dst = append(dst, Delimiter)
	dst = append(dst, firstNames[c.First]...)
	dst = append(dst, ' ')
	dst = append(dst, lastNames[c.Last]...)
	dst = append(dst, Delimiter)
	dst = strconv.AppendInt(dst, int64(c.Number), 10)
	dst = append(dst, ' ')
	dst = append(dst, streets[c.Street]...)
	dst = append(dst, ' ')
	dst = append(dst, streetKinds[c.Kind]...)
	dst = append(dst, Delimiter)
	dst = append(dst, cities[c.City]...)
	dst = append(dst, Delimiter)
	dst = append(dst, states[c.State]...)
	dst = append(dst, Delimiter)
	dst = appendPadded(dst, int64(c.Zip), 5)
	return append(dst, '\n')
}

// AppendTransaction appends t as one line of the transactions file (the
// time as yyyy-MM-dd HH:mm:ss, Hive's TIMESTAMP text form).
func AppendTransaction(dst []byte, t Transaction) []byte {
	dst = strconv.AppendInt(dst, t.ID, 10)
	dst = append(dst, Delimiter)
	dst = strconv.AppendInt(dst, t.CustomerID, 10)
	dst = append(dst, Delimiter)
	dst = strconv.AppendInt(dst, t.BookID, 10)
	dst = append(dst, Delimiter)
	dst = strconv.AppendInt(dst, t.Quantity, 10)
	dst = append(dst, Delimiter)
	dst = appendTime(dst, t.Time)
	return append(dst, '\n')
}

// AppendRow appends row id of table t.
func (d *Dataset) AppendRow(dst []byte, t Table, id int64) []byte {
	switch t {
	case Books:
		return AppendBook(dst, d.Book(id))
	case Customers:
		return AppendCustomer(dst, d.Customer(id))
	}
	return AppendTransaction(dst, d.Transaction(id))
}

// AppendCents appends a price in cents as a decimal with two places.
func AppendCents(dst []byte, cents int64) []byte {
	if cents < 0 {
		dst = append(dst, '-')
		cents = -cents
	}
	dst = strconv.AppendInt(dst, cents/100, 10)
	dst = append(dst, '.')
	return appendPadded(dst, cents%100, 2)
}

func appendPadded(dst []byte, v int64, width int) []byte {
	var b [20]byte
	s := strconv.AppendInt(b[:0], v, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// appendTime appends Unix seconds as yyyy-MM-dd HH:mm:ss (UTC).
func appendTime(dst []byte, secs int64) []byte {
	days, rem := secs/86400, secs%86400
	y, m, d := civil(days)
	dst = appendPadded(dst, int64(y), 4)
	dst = append(dst, '-')
	dst = appendPadded(dst, int64(m), 2)
	dst = append(dst, '-')
	dst = appendPadded(dst, int64(d), 2)
	dst = append(dst, ' ')
	dst = appendPadded(dst, rem/3600, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, rem/60%60, 2)
	dst = append(dst, ':')
	return appendPadded(dst, rem%60, 2)
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date
// (Howard Hinnant's days-to-civil algorithm).
func civil(days int64) (year, month, day int) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return int(y), int(m), int(d)
}
