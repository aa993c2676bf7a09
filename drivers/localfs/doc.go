// Package localfs serves a local directory as a [drivers.FileSystem], so that
// the dfsio workload (TestDFSIO) runs unchanged on a local disk: the dd-like
// baseline of the disk under a distributed file system. `gobench dfsio -fs
// file:///mnt/disk1 -write ...` writes /mnt/disk1/benchmarks/TestDFSIO/...
//
// Names are absolute slash paths below the root directory given to [New]
// ("/" serves the whole local file system, as Hadoop's file:/// does). Writes
// go straight to the file with one write(2) per call, without the page-cache
// flush unless [DB.Sync] is set, as dd without conv=fsync and Hadoop's local
// file system. The YCSB operations are not offered: Read, Scan, Update,
// Insert and Delete return errors.ErrUnsupported (NOT_IMPLEMENTED). Names,
// Size, Truncate and RemoveAll are [drivers.LocalDir]'s, shared with
// drivers/diskfile (dd's flags).
//
// It registers itself as db localfs (keys localfs.root, localfs.sync). It
// may import the standard library, gobench/drivers and gobench/props.
//
//	db := localfs.New("/mnt/disk1")
//	c, _ := db.Open(ctx)
//	w, _ := c.(drivers.FileSystem).Create(ctx, "/bench/f0", 1<<20)
package localfs
