// Package dfsio is Hadoop's TestDFSIO as a gobench workload kind ([Kind],
// workload=dfsio): write, read (sequential, random, backward, skip),
// append, truncate and clean over N files of size S, one worker per file
// (at most threadcount at once), each file's time measured as TestDFSIO's
// map task measures it. It owns TestDFSIO's formats: the control files,
// the reducer's part-00000, the summary lines of 2.x, the 2.8/3.0-alpha
// builds and 3.x ([Summary.Lines]) and the log lines ([Log]).
//
// The kind runs through package workload (workload.Prepare) against any
// driver whose DB declares drivers.CapFiles (hdfs, localfs).
//
// It may import engine, drivers, measure and props, and the standard
// library.
package dfsio
