package main

import _ "github.com/gobench/gobench/drivers/hdfs" // the hdfs driver (YCSB one-file-per-record, dfsio)
