package main

// The drivers the CLI offers. Library users import only the ones they need.
import (
	_ "github.com/gobench/gobench/drivers/basic"
	_ "github.com/gobench/gobench/drivers/diskfile" // gobench disk
	_ "github.com/gobench/gobench/drivers/hbase"
	_ "github.com/gobench/gobench/drivers/hive"
	_ "github.com/gobench/gobench/drivers/iperf3" // gobench net
	_ "github.com/gobench/gobench/drivers/memory"
	_ "github.com/gobench/gobench/drivers/pebble"
)
