package hive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/engine"
)

// Job is the hive workload as an [engine.Job]. Its SetUp (outside the
// measured time) creates the database, generates the files and loads the
// tables as hive.load says, and computes the reference answers when
// hive.verify is on; each worker is one HiveServer2 session that runs the
// query list Passes() times, one query per Step, each timed under the
// query's name. Its methods are safe for concurrent use.
type Job struct {
	cfg  Config
	sink Sink

	mu      sync.Mutex
	answers *Answers
	setup   SetupReport
	results []QueryResult
}

// QueryResult is what the executions of one query returned.
type QueryResult struct {
	Query    Query
	Runs     int      // executions, warm-up included
	Failed   int      // executions that returned an error (wrong answers included)
	Rows     int64    // rows of the first successful execution
	Columns  []string // its column names
	FirstRow []string // its first row (nil: no rows)
	// RowsDiffer is set when executions returned different row counts.
	RowsDiffer bool
	// Verified counts the executions whose answer was checked against the
	// Go reference (and matched, unless Mismatch is set).
	Verified int
	Mismatch string // the first answer that differed from the reference
	FirstErr error  // the first failure
}

// SetupReport says what SetUp did, for the command's log.
type SetupReport struct {
	Dataset    Dataset
	Generated  GenStats
	Reused     bool // the tables already held the data set (hive.load=auto)
	Steps      []SetupStep
	AnswerTime time.Duration // computing the reference (hive.verify)
}

// SetupStep is one statement of the loading, timed.
type SetupStep struct {
	SQL  string
	Time time.Duration
}

// NewJob makes the job of c.
func NewJob(c Config) *Job {
	j := &Job{cfg: c}
	for _, q := range c.Queries {
		j.results = append(j.results, QueryResult{Query: q})
	}
	if !c.HDFS() {
		j.sink = LocalDir(c.DataDir)
	}
	return j
}

// Config returns the job's configuration.
func (j *Job) Config() Config { return j.cfg }

// UseSink makes the generator write through s (the command gives an HDFS
// file system for hive.datadir=hdfs://...). Call it before the run.
func (j *Job) UseSink(s Sink) { j.sink = s }

// Ops implements [engine.Job]: one measurement per query.
func (j *Job) Ops() []string {
	n := make([]string, len(j.cfg.Queries))
	for i, q := range j.cfg.Queries {
		n[i] = q.Name
	}
	return n
}

// Extra implements [engine.Job].
func (j *Job) Extra() []string { return nil }

// Warnings implements [engine.Job].
func (j *Job) Warnings() []string { return nil }

// Schema implements [engine.Job]: the tables are the job's own.
func (j *Job) Schema() drivers.Schema { return drivers.Schema{Table: Books.String()} }

// Results returns a copy of the per-query results, in query order.
func (j *Job) Results() []QueryResult {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.results)
}

// Setup returns what SetUp did.
func (j *Job) Setup() SetupReport {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.setup
}

// Answers returns the reference answers (nil unless hive.verify was on).
func (j *Job) Answers() *Answers {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.answers
}

// quote is a Hive string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "\\'") + "'" }

// SetUp implements [engine.SetUpper].
func (j *Job) SetUp(ctx context.Context, conn drivers.Conn, log io.Writer) error {
	q, ok := conn.(drivers.Querier)
	if !ok {
		return errors.New("hive: the workload needs SQL queries (db hive)")
	}
	c := j.cfg
	rep := SetupReport{Dataset: c.Dataset}
	exec := func(sql string) error {
		t0 := time.Now()
		err := q.Query(ctx, sql, nil)
		rep.Steps = append(rep.Steps, SetupStep{SQL: sql, Time: time.Since(t0)})
		if err != nil {
			return fmt.Errorf("hive set-up: %s: %w", firstLine(sql), err)
		}
		return nil
	}
	defer func() {
		j.mu.Lock()
		j.setup = rep
		j.mu.Unlock()
	}()
	if c.Database != "default" {
		if err := exec("CREATE DATABASE IF NOT EXISTS " + c.Database); err != nil {
			return err
		}
	}
	if err := exec("USE " + c.Database); err != nil {
		return err
	}
	fmt.Fprintf(log, "hive: data set %s (%s)\n", c.Dataset, c.Scale)
	if c.Load != LoadNever {
		if err := j.load(ctx, q, exec, &rep, log); err != nil {
			return err
		}
	}
	if c.Verify && c.Load == LoadNever {
		if err := j.checkTables(ctx, q); err != nil {
			return err
		}
	}
	if c.Verify {
		t0 := time.Now()
		a, err := c.Dataset.Answers(ctx, c.GenThreads)
		if err != nil {
			return fmt.Errorf("hive set-up: reference answers: %w", err)
		}
		rep.AnswerTime = time.Since(t0)
		fmt.Fprintf(log, "hive: reference answers computed in Go in %.2f s\n", rep.AnswerTime.Seconds())
		j.mu.Lock()
		j.answers = a
		j.mu.Unlock()
	}
	return nil
}

// load generates the files (unless they or the tables already hold the
// data set) and creates and loads the tables.
func (j *Job) load(ctx context.Context, q drivers.Querier, exec func(string) error, rep *SetupReport, log io.Writer) error {
	c := j.cfg
	mark := c.Dataset.String()
	if c.Load == LoadAuto && j.tablesHold(ctx, q, mark) {
		rep.Reused = true
		fmt.Fprintf(log, "hive: tables %s, %s, %s in database %s hold this data set; not reloaded (hive.load=always reloads)\n", Books, Customers, Transactions, c.Database)
		return nil
	}
	if j.sink == nil {
		return fmt.Errorf("hive set-up: %s=%s: no file system to write to (gobench hive opens HDFS itself; a library user calls Job.UseSink)", KeyDataDir, c.DataDir)
	}
	st, err := c.Dataset.Generate(ctx, j.sink, c.GenThreads)
	rep.Generated = st
	if err != nil {
		return fmt.Errorf("hive set-up: generating the data in %s: %w", c.DataDir, err)
	}
	if st.Reuse {
		fmt.Fprintf(log, "hive: %s already holds this data set; files reused\n", c.DataDir)
	} else {
		var total int64
		for _, b := range st.Bytes {
			total += b
		}
		fmt.Fprintf(log, "hive: generated %s in %d files under %s in %.2f s (%.1f MB/s, %d goroutines)\n", formatBytes(total),
			st.Files[0]+st.Files[1]+st.Files[2], c.DataDir, st.Time.Seconds(), float64(total)/(1<<20)/max(st.Time.Seconds(), 1e-9), c.GenThreads)
	}
	local := "LOCAL "
	if c.HDFS() {
		local = "" // LOAD DATA INPATH moves the files into the warehouse
	}
	for _, t := range Tables() {
		t0 := time.Now()
		name, dir := t.String(), strings.TrimSuffix(c.DataDir, "/")+"/"+t.String()
		text := name
		if c.Format != "text" {
			text = name + "_gobench_text"
		}
		props := fmt.Sprintf(" TBLPROPERTIES ('gobench.dataset'=%s)", quote(mark))
		stmts := []string{
			"DROP TABLE IF EXISTS " + name,
			fmt.Sprintf("CREATE TABLE %s (%s) ROW FORMAT DELIMITED FIELDS TERMINATED BY '%c' STORED AS TEXTFILE%s", text, t.Columns(), Delimiter, props),
			fmt.Sprintf("LOAD DATA %sINPATH %s OVERWRITE INTO TABLE %s", local, quote(dir), text),
		}
		if c.Format != "text" {
			stmts = append([]string{"DROP TABLE IF EXISTS " + text}, stmts...)
			stmts = append(stmts,
				fmt.Sprintf("CREATE TABLE %s STORED AS %s%s AS SELECT * FROM %s", name, strings.ToUpper(c.Format), props, text),
				"DROP TABLE "+text)
		}
		for _, s := range stmts {
			if err := exec(s); err != nil {
				return err
			}
		}
		fmt.Fprintf(log, "hive: table %s created and loaded (%s) in %.2f s\n", name, c.Format, time.Since(t0).Seconds())
	}
	if c.HDFS() {
		// The part files were moved into the warehouse: the directory no
		// longer holds the data set.
		if err := j.sink.RemoveAll(ctx, manifestName); err != nil {
			return fmt.Errorf("hive set-up: %w", err)
		}
	}
	return nil
}

// checkTables makes sure that the tables hold the data set the reference
// is computed for (hive.load=never with hive.verify).
func (j *Job) checkTables(ctx context.Context, q drivers.Querier) error {
	mark := j.cfg.Dataset.String()
	for _, t := range Tables() {
		got := ""
		err := q.Query(ctx, fmt.Sprintf("SHOW TBLPROPERTIES %s('gobench.dataset')", t), func(_, row []string) error {
			got = strings.TrimSpace(row[len(row)-1])
			return nil
		})
		switch {
		case err != nil:
			return fmt.Errorf("hive set-up: %s: cannot verify table %s: %w", KeyVerify, t, err)
		case got != mark:
			return fmt.Errorf("hive set-up: %s: table %s holds %q, not the data set the answers are computed for (%s); give the hive.scale and hive.dataseed it was loaded with, or hive.load=auto", KeyVerify, t, got, mark)
		}
	}
	return nil
}

// tablesHold reports whether the three tables exist and carry mark in
// their gobench.dataset property.
func (j *Job) tablesHold(ctx context.Context, q drivers.Querier, mark string) bool {
	for _, t := range Tables() {
		var got string
		err := q.Query(ctx, fmt.Sprintf("SHOW TBLPROPERTIES %s('gobench.dataset')", t), func(_, row []string) error {
			got = strings.Join(row, "\t")
			return nil
		})
		if err != nil || strings.TrimSpace(got) != mark && !strings.HasSuffix(strings.TrimSpace(got), "\t"+mark) {
			return false
		}
	}
	return true
}

// NewTask implements [engine.Job].
func (j *Job) NewTask(_ int, conn drivers.Conn, _ *rand.Rand, m *engine.Meter) (engine.Task, error) {
	q, ok := conn.(drivers.Querier)
	if !ok {
		return nil, errors.New("hive: the workload needs SQL queries (db hive)")
	}
	return &task{j: j, q: q, m: m}, nil
}

// task is one session's loop: query seq % len(queries), pass seq / len.
type task struct {
	j      *Job
	q      drivers.Querier
	m      *engine.Meter
	seq    int
	used   bool
	useErr error
	// per execution
	rows    int64
	cols    []string
	first   []string
	collect bool
	got     [][]string
}

// maxCollect bounds the rows kept for checking an answer (the built-in
// queries return at most 10).
const maxCollect = 100

func (t *task) onRow(cols, row []string) error {
	if t.rows == 0 {
		t.cols, t.first = slices.Clone(cols), slices.Clone(row)
	}
	t.rows++
	if t.collect && len(t.got) < maxCollect {
		t.got = append(t.got, slices.Clone(row))
	}
	return nil
}

// Step implements [engine.Task]: one execution of the next query.
func (t *task) Step(ctx context.Context) bool {
	c := &t.j.cfg
	if !t.used {
		t.used = true
		if c.Database != "default" {
			t.useErr = t.q.Query(ctx, "USE "+c.Database, nil)
		}
	}
	qi := t.seq % len(c.Queries)
	warm := t.seq/len(c.Queries) < c.Warmup
	t.seq++
	q := c.Queries[qi]
	answers := t.j.Answers()
	t.rows, t.cols, t.first, t.got = 0, nil, nil, t.got[:0]
	t.collect = answers != nil && q.Builtin > 0
	start := t.m.Now()
	err := t.useErr
	if err == nil {
		err = t.q.Query(ctx, q.SQL, t.onRow)
	}
	end := t.m.Now()
	mismatch := ""
	if err == nil && t.collect {
		if cerr := answers.Check(q.Builtin, t.got); cerr != nil {
			mismatch = cerr.Error()
			err = &WrongAnswer{Query: q.Name, Diff: mismatch}
		}
	}
	if !warm || err != nil {
		t.m.MeasureSpan(qi, start, end, t.m.Intended(), err)
	}
	t.j.record(qi, t, err, mismatch)
	return true
}

// WrongAnswer is a built-in query's answer that differs from the Go
// reference; it classifies as UNEXPECTED_STATE.
type WrongAnswer struct {
	Query string
	Diff  string
}

func (e *WrongAnswer) Error() string { return "the answer differs from the Go reference: " + e.Diff }

// Unwrap gives the return code to drivers.Classify.
func (e *WrongAnswer) Unwrap() error { return &drivers.StatusError{Status: drivers.UnexpectedState} }

func (j *Job) record(qi int, t *task, err error, mismatch string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	r := &j.results[qi]
	r.Runs++
	if t.collect && err == nil || mismatch != "" {
		r.Verified++
	}
	if mismatch != "" && r.Mismatch == "" {
		r.Mismatch = mismatch
	}
	if err != nil {
		r.Failed++
		if r.FirstErr == nil {
			r.FirstErr = err
		}
		return
	}
	if r.Runs-r.Failed == 1 {
		r.Rows, r.Columns, r.FirstRow = t.rows, t.cols, t.first
	} else if t.rows != r.Rows {
		r.RowsDiffer = true
	}
}
