package props_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gobench/gobench/props"
)

func ExampleParse() {
	file := `# my workload
recordcount = 1000
readproportion: 0.95
table usertable
description=a long \
    text
`
	vals, err := props.Parse(strings.NewReader(file), "my.properties")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range vals {
		fmt.Printf("%s=%q (%s)\n", v.Key, v.Value, v.Where())
	}
	// Output:
	// recordcount="1000" (my.properties:2)
	// readproportion="0.95" (my.properties:3)
	// table="usertable" (my.properties:4)
	// description="a long text" (my.properties:5)
}

func ExampleParse_errors() {
	_, err := props.Parse(strings.NewReader("recordcount\n=5\nok=1\n"), "my.properties")
	fmt.Println(err)
	// Output:
	// my.properties:1: malformed property "recordcount": key without "=" or value (write key= for an empty value)
	// my.properties:2: malformed property "=5": empty key
}

func ExampleDecoder() {
	var layers props.Layers
	layers.Add(props.LayerDefault, props.FromMap(map[string]string{"threadcount": "1"}, "default")...)
	file, _ := props.Parse(strings.NewReader("recordcount=10x0\nmaxexecutiontime=90s\nrequestdistribution=zipfan\nthreads=8\n"), "my.properties")
	layers.Add(props.LayerFile, file...)
	p, _ := props.ParseOverride("threadcount=4", "-p")
	layers.Add(props.LayerOverride, p)

	d := props.NewDecoder(layers.Set())
	threads := d.IntRange("threadcount", 1, 1, 10000)
	records := d.Int64Range("recordcount", 0, 0, 1<<31-1)
	limit := d.Duration("maxexecutiontime", 0, time.Second)
	dist := d.Enum("requestdistribution", "uniform", "uniform", "zipfian", "latest")
	fmt.Println(threads, records, limit, dist)

	err := errors.Join(d.Err(), errors.Join(d.Unknown([]string{"table"})...))
	fmt.Println(err)
	// Output:
	// 4 0 1m30s uniform
	// property recordcount="10x0" (my.properties:1): invalid integer; allowed: a whole number from 0 to 2147483647
	// property requestdistribution="zipfan" (my.properties:3): invalid value; allowed: uniform, zipfian, latest (did you mean "zipfian"?)
	// property threads="8" (my.properties:4): unknown property (did you mean "threadcount"?)
}

func ExampleSet_Dump() {
	var layers props.Layers
	layers.Add(props.LayerWorkload, props.Value{Key: "recordcount", Value: "1000", Source: "workloada", Line: 17})
	layers.Add(props.LayerFlag, props.Value{Key: "threadcount", Value: "8", Source: "-threads"})
	layers.Set().Dump(os.Stdout)
	// Output:
	// recordcount=1000  # workloada:17
	// threadcount=8     # -threads
}
