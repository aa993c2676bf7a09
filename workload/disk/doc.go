// Package disk is dd's disk test as a gobench workload kind ([Kind],
// workload=disk): each worker writes (or reads back) one file sequentially in
// blocks of disk.bs bytes, as `dd if=/dev/zero of=FILE bs=BS count=N
// conv=fdatasync` and `dd if=FILE of=/dev/null bs=BS iflag=direct` do,
// several files at once (disk.files per directory of disk.dirs: one
// directory per disk measures the node's disks together). Each block is one
// operation (WRITE or READ), the open (OPEN) and the close (CLOSE, which
// holds the fdatasync) are timed apart, and each file's time runs, as dd's
// does, from after the open to after the close. It owns dd's formats: the
// records and "N bytes (…) copied, S s, R MB/s" lines of GNU coreutils
// ([Lines]) and the human-readable sizes and rates they use ([HumanSize],
// [HumanRate]).
//
// The kind needs file streams (drivers.CapFiles); how a file is written and
// read (O_DIRECT, O_DSYNC, fdatasync, direct reads) is the driver's
// business: drivers/diskfile does what dd does, and is what `gobench disk`
// uses. One run is one direction at one block size; `gobench disk` (and the
// acceptance suite) run a write and a read per block size, each through
// workload.Prepare and Plan.Run.
//
// It may import engine, drivers and props, and the standard library.
package disk
