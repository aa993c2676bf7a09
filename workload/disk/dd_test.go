package disk

import (
	"testing"
	"time"
)

// Sizes as GNU dd 9.1 printed them for these byte counts (head -c N
// /dev/zero | dd of=/dev/null bs=1M iflag=fullblock).
func TestTransferSizeAsGNUdd(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{1, "1 byte copied"},
		{2, "2 bytes copied"},
		{999, "999 bytes copied"},
		{1000, "1000 bytes (1.0 kB) copied"},
		{1023, "1023 bytes (1.0 kB) copied"},
		{1024, "1024 bytes (1.0 kB, 1.0 KiB) copied"},
		{1050, "1050 bytes (1.0 kB, 1.0 KiB) copied"},
		{1051, "1051 bytes (1.1 kB, 1.0 KiB) copied"},
		{1536, "1536 bytes (1.5 kB, 1.5 KiB) copied"},
		{9949, "9949 bytes (9.9 kB, 9.7 KiB) copied"},
		{9950, "9950 bytes (10 kB, 9.7 KiB) copied"},
		{10239, "10239 bytes (10 kB, 10 KiB) copied"},
		{99999, "99999 bytes (100 kB, 98 KiB) copied"},
		{999499, "999499 bytes (999 kB, 976 KiB) copied"},
		{999500, "999500 bytes (1.0 MB, 976 KiB) copied"},
		{1048575, "1048575 bytes (1.0 MB, 1.0 MiB) copied"},
		{104857600, "104857600 bytes (105 MB, 100 MiB) copied"},
		{1073741824, "1073741824 bytes (1.1 GB, 1.0 GiB) copied"},
		{123456789, "123456789 bytes (123 MB, 118 MiB) copied"},
		{9995000000, "9995000000 bytes (10 GB, 9.3 GiB) copied"},
	} {
		got := Transfer(c.n, time.Second)
		if want := c.want + ", 1 s, "; got[:len(want)] != want {
			t.Errorf("Transfer(%d) = %q, want prefix %q", c.n, got, want)
		}
	}
}

func TestTransferTimeAndRate(t *testing.T) {
	for _, c := range []struct {
		n    int64
		d    time.Duration
		want string
	}{
		// The three paths of human_readable for the rate: exact multiple,
		// exact divisor, floating point.
		{1073741824, time.Second, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1 s, 1.1 GB/s"},
		{1073741824, 2 * time.Second, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2 s, 537 MB/s"},
		{1073741824, 2435680 * time.Microsecond, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.43568 s, 441 MB/s"},
		{1073741824, 29400 * time.Millisecond, "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 29.4 s, 36.5 MB/s"},
		{512, 123 * time.Microsecond, "512 bytes copied, 0.000123 s, 4.2 MB/s"},
		// An exact multiple keeps to integers, which drop the tenths from
		// 10 up; floating point keeps them below 100.
		{1024000, 100 * time.Millisecond, "1024000 bytes (1.0 MB, 1000 KiB) copied, 0.1 s, 10 MB/s"},
		{1024000, 100001 * time.Microsecond, "1024000 bytes (1.0 MB, 1000 KiB) copied, 0.100001 s, 10.2 MB/s"},
		{0, 10 * time.Microsecond, "0 bytes copied, 1e-05 s, 0 B/s"},
		{0, 10001 * time.Nanosecond, "0 bytes copied, 1.0001e-05 s, 0.0 kB/s"},
		{5, 0, "5 bytes copied, 0 s, Infinity B/s"},
	} {
		if got := Transfer(c.n, c.d); got != c.want {
			t.Errorf("Transfer(%d, %v) =\n %q\nwant\n %q", c.n, c.d, got, c.want)
		}
	}
}

func TestLinesCountRecords(t *testing.T) {
	l := Lines(2560, 2, 1, time.Second)
	if l[0] != "2+1 records in" || l[1] != "2+1 records out" {
		t.Fatalf("records lines %q", l[:2])
	}
}
