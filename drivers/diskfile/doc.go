// Package diskfile serves local files the way dd writes and reads them, as a
// [drivers.FileSystem], so that the disk workload (gobench disk) measures
// the disk rather than the page cache: writes may open the file with
// O_DIRECT, O_DSYNC or O_SYNC (dd's oflag=direct, dsync, sync) and flush it
// with fdatasync or fsync before Close returns (conv=fdatasync, fsync);
// reads may open it with O_DIRECT (iflag=direct), so a file just written is
// read from the device, not from memory.
//
// It is apart from drivers/localfs on purpose: localfs is Hadoop's local
// file system (buffered, page cache, as file:// is for TestDFSIO), this is
// dd's I/O discipline. The two share [drivers.LocalDir] (names below the
// root, Size, Truncate, RemoveAll); each opens its own streams. With
// O_DIRECT, a buffer whose address and length are multiples of the file
// system's direct-I/O alignment (statx STATX_DIOALIGN; 4096 where that is
// not known) goes to the device as it is; any other buffer is copied
// through an aligned one, and a last block shorter than the alignment is
// written after dropping O_DIRECT (as dd does). A block size that is not a
// multiple of the alignment is refused at Create and Open with an error
// saying which alignment the file system needs.
//
// Names are absolute slash paths below the root (diskfile.root, default
// "/": names are the local paths). The YCSB operations are not offered.
// Keys: diskfile.root, diskfile.oflag (none, direct, dsync, sync; a comma
// list), diskfile.conv (none, fdatasync, fsync; default fdatasync) and
// diskfile.iflag (none, direct; default direct). Direct I/O is Linux's;
// elsewhere oflag=direct and iflag=direct are refused.
//
// It may import the standard library, golang.org/x/sys/unix, gobench/drivers
// and gobench/props.
//
//	db := diskfile.New("/", diskfile.Modes{Conv: diskfile.Fdatasync, DirectRead: true})
//	c, _ := db.Open(ctx)
//	w, _ := c.(drivers.FileSystem).Create(ctx, "/data1/gobench-disk-0", 1<<20)
package diskfile
