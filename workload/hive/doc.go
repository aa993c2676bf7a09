// Package hive is the field report's Hive test (shared/field-reports/000)
// as a gobench workload kind ([Kind], workload=hive, `gobench hive`), run
// through package workload against any driver that declares
// drivers.CapQuery (the hive driver, HiveServer2).
//
// It owns:
//   - the data set ([Dataset]): books, customers and transactions with the
//     columns the report's queries need plus descriptive ones, every row a
//     pure function of (seed, table, id) computed with integer arithmetic
//     only, so the same seed and scale give byte-identical files on every
//     machine; realistic shapes: 24 categories with a long tail, shelf
//     prices in tiers, US states weighted by population, first and last
//     names (the report's 'Asher MATTHEWS' is one of 10 000 combinations),
//     bestseller-skewed book ids, quantities mostly 1, timestamps over
//     2000-2020. The scale is bytes per table (the report: 4 GB each) or
//     rows per table. Files are '|'-delimited text, written in parallel as
//     <table>/part-NNNNN with a manifest, to a local directory or through a
//     drivers.FileSystem (HDFS);
//   - the loading: CREATE TABLE ... TEXTFILE, LOAD DATA [LOCAL] INPATH, and
//     optionally a conversion to ORC or Parquet inside Hive; tables carry
//     the data set in a table property, so a rerun reuses them;
//   - the report's five queries word for word ([Builtins]) and the parsing
//     of a user's .sql file ([ParseSQL]);
//   - the reference ([Answers]): the five answers computed in Go from the
//     generated rows, and the check of Hive's rows against them
//     (ties in ORDER BY ... LIMIT 10 allowed, decimals compared exactly).
//
// A run is threadcount sessions, each running the query list
// hive.warmup + hive.repeat times in order; each query is its own
// measurement (HDR histogram), so the report shows min, percentiles and
// max per query under concurrency. Warm-up passes are not measured (a
// failed one is). A wrong answer (hive.verify) counts as UNEXPECTED_STATE.
//
// It may import engine, drivers and props, and the standard library.
package hive
