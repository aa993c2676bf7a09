package kafka

import (
	"context"
	"errors"
	"testing"

	"github.com/gobench/gobench/drivers"
)

// A topic look-up that found no broker is not repeated by every record:
// until kafka.timeout has passed again, callers get the same error at once
// (producer-perf on an unreachable cluster took records × kafka.timeout).
func TestFailedLookupIsNotRepeatedPerRecord(t *testing.T) {
	dbi, err := Driver{}.Configure(decoder(KeyBrokers, "127.0.0.1:1", KeyTimeout, "2000"), drivers.Schema{})
	if err != nil {
		t.Fatal(err)
	}
	db := dbi.(*DB)
	defer db.Close()
	first, err := db.topic(context.Background(), "t")
	if err == nil || first != nil {
		t.Fatalf("look-up on 127.0.0.1:1 = %v, %v; want an error", first, err)
	}
	if !errors.Is(err, drivers.ErrUnavailable) {
		t.Fatalf("first look-up: %v, want it to wrap ErrUnavailable", err)
	}
	for i := 0; i < 3; i++ {
		_, again := db.topic(context.Background(), "t")
		if again != err { // the remembered error itself: describe did not run again
			t.Fatalf("look-up %d: %v, want the first look-up's error", i+2, again)
		}
	}
}
