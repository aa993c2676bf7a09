package main

const usageText = `gobench: a native YCSB-compatible load generator for HBase, HDFS, Kafka
and an embedded store.

Usage:
  gobench load [BINDING] [-w NAME | -P FILE]... [-p key=value]... [flags]
  gobench run  [BINDING] [-w NAME | -P FILE]... [-p key=value]... [flags]
  gobench workloads          list the shipped workloads
  gobench version
  gobench help

Flags of load and run (YCSB's single-dash spellings work too: -threads 500):
  -w, --workload NAME       a shipped workload (workloada ... workloadf); repeatable
  -P, --property-file FILE  a property file; repeatable, later files win
  -p, --prop key=value      set a property; beats every file
      --threads N           client threads (threadcount), default 1
      --target N            total ops/s over all threads; 0 = unthrottled
      --db NAME             driver: pebble (default), memory, basic, hbase
  -s, --status              status line every status.interval seconds (stderr)
  -l, --label TEXT          prefix of the status line
      --cp DIR              YCSB's -cp: a directory holding hbase-site.xml
      --jvm-args ARGS       accepted and ignored (there is no JVM)

Precedence, lowest first: defaults, -w and -P files in command-line order,
-p, explicit flags. Unknown properties are errors (with a hint).

Examples:
  gobench load -w workloada                         # 1000 records into ./gobench-data (pebble)
  gobench run -w workloada -threads 16 -s           # the YCSB report on stdout
  gobench run basic -P workloads/workloadc -threads 64 -p operationcount=1000000
  gobench run -w workloadb -db hbase -threads 500 -target 20000 -s
  gobench run -w workloada -p maxexecutiontime=60 -p operationcount=0 -p gobench.warmup=10
  gobench run -w workloada -p exporter=json -p exportfile=result.json

Exit status: 0 ok, 1 the run failed, 2 usage or configuration error.

More commands (each has --help):
`
