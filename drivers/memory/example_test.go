package memory_test

import (
	"context"
	"fmt"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/memory"
)

func ExampleDB() {
	ctx := context.Background()
	db := memory.NewDB(drivers.Schema{Table: "usertable", Fields: []string{"field0", "field1"}})
	defer db.Close()
	c, _ := db.Open(ctx)
	defer c.Close(ctx)

	r := drivers.NewRecord(2)
	for _, k := range []string{"user3", "user1", "user20"} {
		r.Set(0, []byte("v-"+k))
		r.Set(1, []byte("w"))
		_ = c.Insert(ctx, "usertable", []byte(k), r)
	}
	_ = c.Scan(ctx, "usertable", []byte("user1"), 10, drivers.FieldSet{0}, func(key []byte, r *drivers.Record) error {
		v, _ := r.Get(0)
		fmt.Printf("%s %s (%d field)\n", key, v, r.Count())
		return nil
	})
	err := c.Read(ctx, "usertable", []byte("user2"), nil, r)
	fmt.Println(drivers.Classify(err))
	// Output:
	// user1 v-user1 (1 field)
	// user20 v-user20 (1 field)
	// user3 v-user3 (1 field)
	// NOT_FOUND
}
