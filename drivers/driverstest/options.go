package driverstest

import (
	"strconv"
	"time"

	"github.com/gobench/gobench/drivers"
)

// NumFields is the number of fields in [Schema].
const NumFields = 6

// Schema returns the schema every DB handed to [Run] or [Bench] must be
// configured with: table "usertable" and fields field0..field5. Sub-tests use
// other table names, passed with each operation.
func Schema() drivers.Schema {
	f := make([]string, NumFields)
	for i := range f {
		f[i] = "field" + strconv.Itoa(i)
	}
	return drivers.Schema{Table: "usertable", Fields: f}
}

// Option declares a limit of the driver under test.
type Option func(*config)

type config struct {
	noScan, noDelete, noData, noBinaryKeys bool
	eventual                               time.Duration
	maxValue                               int
	tablePrefix                            string
	workers                                int
	query                                  *queryCheck // QueryOnly
}

func newConfig(opts []Option) config {
	c := config{maxValue: 1 << 20, tablePrefix: "gobenchtest_", workers: 16}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// NoScan declares that Scan is unsupported: the suite then expects it to
// return an error wrapping errors.ErrUnsupported (NOT_IMPLEMENTED).
func NoScan() Option { return func(c *config) { c.noScan = true } }

// NoDelete declares that Delete is unsupported: the suite then expects an
// error wrapping errors.ErrUnsupported.
func NoDelete() Option { return func(c *config) { c.noDelete = true } }

// NoData declares a driver that stores nothing and answers every operation
// with OK, as YCSB's BasicDB does: reads then return no fields and scans no
// records.
func NoData() Option { return func(c *config) { c.noData = true } }

// NoBinaryKeys declares that keys must be printable text (for example file
// names); the suite then skips keys holding arbitrary bytes.
func NoBinaryKeys() Option { return func(c *config) { c.noBinaryKeys = true } }

// Eventual declares that writes become visible to reads within d rather than
// at once; the suite then retries its checks until they pass or d has passed.
func Eventual(d time.Duration) Option { return func(c *config) { c.eventual = d } }

// MaxValueSize caps the size in bytes of the largest field value the suite
// writes (default 1 MiB).
func MaxValueSize(n int) Option { return func(c *config) { c.maxValue = n } }

// TablePrefix sets the prefix of the tables the suite creates (default
// "gobenchtest_"), so that runs against a shared server stay apart from real
// data.
func TablePrefix(p string) Option { return func(c *config) { c.tablePrefix = p } }

// Workers sets the number of concurrent connections in the concurrency test
// (default 16).
func Workers(n int) Option { return func(c *config) { c.workers = n } }

// QueryOnly declares a driver that runs SQL ([drivers.Querier]) and offers
// no record operations: the suite then expects every record operation to
// return an error wrapping errors.ErrUnsupported, runs stmt on several
// connections at once expecting the rows want (in order), checks that an
// error from the row callback stops the query and comes back, and that the
// statement bad classifies as BAD_REQUEST with the connection still usable.
func QueryOnly(stmt string, want [][]string, bad string) Option {
	return func(c *config) { c.query = &queryCheck{stmt: stmt, want: want, bad: bad} }
}
