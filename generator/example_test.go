package generator_test

import (
	"fmt"

	"github.com/gobench/gobench/generator"
)

// A worker draws keynums for workload A (1000 records, zipfian) and turns
// them into Java-compatible keys in a reused buffer.
func ExampleScrambledZipfian() {
	keys, err := generator.NewScrambledZipfian(0, 999)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := generator.NewRand(42, 0) // run seed 42, worker 0
	buf := make([]byte, 0, 32)
	for range 3 {
		buf = generator.AppendKey(buf[:0], keys.Next(r), true, 1)
		fmt.Println(string(buf))
	}
	// Output:
	// user2760361450091468711
	// user6983856534211135595
	// user6299400367237320702
}

// Item 0 of a zipfian(0,999) is drawn about 1/ζ(1000) ≈ 12.9 % of the time.
func ExampleZipfian() {
	z, err := generator.NewZipfian(0, 999)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := generator.NewRand(1, 0)
	head := 0
	for range 100_000 {
		if z.Next(r) == 0 {
			head++
		}
	}
	fmt.Printf("ζ(1000) = %.3f, item 0 drawn %.1f%% of the time\n",
		generator.Zeta(1000, generator.ZipfianConstant), float64(head)/1000)
	// Output:
	// ζ(1000) = 7.729, item 0 drawn 13.0% of the time
}

func ExampleAppendKey() {
	var buf []byte
	buf = generator.AppendKey(buf[:0], 0, true, 1) // insertorder=hashed
	fmt.Println(string(buf))
	buf = generator.AppendKey(buf[:0], 5, false, 8) // insertorder=ordered, zeropadding=8
	fmt.Println(string(buf))
	// Output:
	// user6284781860667377211
	// user00000005
}

// Run-phase inserts: a key becomes visible to readers (Last) only when it
// and every key before it have been acknowledged.
func ExampleAcknowledgedCounter() {
	c := generator.NewAcknowledgedCounter(1000) // recordcount = 1000
	a, b := c.Next(nil), c.Next(nil)
	_ = c.Acknowledge(b)
	fmt.Println(c.Last())
	_ = c.Acknowledge(a)
	fmt.Println(c.Last())
	// Output:
	// 999
	// 1001
}
