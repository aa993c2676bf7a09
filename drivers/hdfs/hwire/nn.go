package hwire

import (
	"errors"
	"fmt"
)

// Create flags (CreateFlagProto).
const (
	FlagCreate    = 0x01
	FlagOverwrite = 0x02
)

// Create creates src (the create RPC) and returns its status; with
// overwrite an existing file is replaced in the same call, and createParent
// makes the missing parent directories.
func (n *NameNode) Create(src string, perm uint32, overwrite, createParent bool, replication uint32, blockSize uint64) (FileStatus, error) {
	flags := uint64(FlagCreate)
	if overwrite {
		flags |= FlagOverwrite
	}
	b := putString(nil, 1, src)
	b = putMsg(b, 2, func(m []byte) []byte { return putUint(m, 1, uint64(perm)) })
	b = putString(b, 3, n.ClientName)
	b = putUint(b, 4, flags)
	b = putBool(b, 5, createParent)
	b = putUint(b, 6, uint64(replication))
	b = putUint(b, 7, blockSize)
	resp, err := n.Call("create", b)
	var st FileStatus
	if err != nil {
		return st, err
	}
	err = each(resp, func(f field) error {
		if f.n == 1 {
			return st.decode(f.v)
		}
		return nil
	})
	return st, err
}

// AddBlock allocates the next block of src after previous (nil for the
// first), on DataNodes other than exclude.
func (n *NameNode) AddBlock(src string, fileID uint64, previous *Block, exclude []Datanode) (LocatedBlock, error) {
	b := putString(nil, 1, src)
	b = putString(b, 2, n.ClientName)
	if previous != nil {
		b = putMsg(b, 3, previous.append)
	}
	for i := range exclude {
		b = putBytes(b, 4, exclude[i].Raw)
	}
	b = putUint(b, 5, fileID)
	return n.locatedBlockCall("addBlock", b)
}

func (n *NameNode) locatedBlockCall(method string, req []byte) (LocatedBlock, error) {
	var lb LocatedBlock
	resp, err := n.Call(method, req)
	if err != nil {
		return lb, err
	}
	found := false
	err = each(resp, func(f field) error {
		if f.n == 1 {
			found = true
			// Copy: the response buffer is reused by the next call.
			return lb.decode(append([]byte(nil), f.v...))
		}
		return nil
	})
	if err == nil && !found {
		err = fmt.Errorf("namenode %s: no block in the answer: %w", method, errCorrupt)
	}
	return lb, err
}

// Complete closes src with last as its last block; false means the
// NameNode waits for the last block's replicas (call again).
func (n *NameNode) Complete(src string, fileID uint64, last *Block) (bool, error) {
	b := putString(nil, 1, src)
	b = putString(b, 2, n.ClientName)
	if last != nil {
		b = putMsg(b, 3, last.append)
	}
	b = putUint(b, 4, fileID)
	return n.boolCall("complete", b)
}

func (n *NameNode) boolCall(method string, req []byte) (bool, error) {
	resp, err := n.Call(method, req)
	if err != nil {
		return false, err
	}
	ok := false
	err = each(resp, func(f field) error {
		if f.n == 1 {
			ok = f.x != 0
		}
		return nil
	})
	return ok, err
}

// AbandonBlock gives up the last block of src (its pipeline could not be
// set up).
func (n *NameNode) AbandonBlock(src string, fileID uint64, blk Block) error {
	b := putMsg(nil, 1, blk.append)
	b = putString(b, 2, src)
	b = putString(b, 3, n.ClientName)
	b = putUint(b, 4, fileID)
	_, err := n.Call("abandonBlock", b)
	return err
}

// UpdateBlockForPipeline returns blk with a new generation stamp and access
// token, for a pipeline recovery.
func (n *NameNode) UpdateBlockForPipeline(blk Block) (LocatedBlock, error) {
	b := putMsg(nil, 1, blk.append)
	b = putString(b, 2, n.ClientName)
	return n.locatedBlockCall("updateBlockForPipeline", b)
}

// UpdatePipeline records the recovered pipeline: newBlk (the new generation
// stamp) on nodes.
func (n *NameNode) UpdatePipeline(oldBlk, newBlk Block, nodes []Datanode, storageIDs []string) error {
	b := putString(nil, 1, n.ClientName)
	b = putMsg(b, 2, oldBlk.append)
	b = putMsg(b, 3, newBlk.append)
	for i := range nodes {
		b = putBytes(b, 4, nodes[i].ID)
	}
	for _, s := range storageIDs {
		b = putString(b, 5, s)
	}
	_, err := n.Call("updatePipeline", b)
	return err
}

// GetBlockLocations returns the blocks of src that hold [offset,
// offset+length). A missing file is fs.ErrNotExist.
func (n *NameNode) GetBlockLocations(src string, offset, length uint64) (LocatedBlocks, error) {
	b := putString(nil, 1, src)
	b = putUint(b, 2, offset)
	b = putUint(b, 3, length)
	var l LocatedBlocks
	resp, err := n.Call("getBlockLocations", b)
	if err != nil {
		return l, err
	}
	found := false
	err = each(resp, func(f field) error {
		if f.n == 1 {
			found = true
			return l.decode(append([]byte(nil), f.v...))
		}
		return nil
	})
	if err == nil && !found {
		// Java's client throws FileNotFoundException for a missing answer.
		err = &RemoteError{Method: "getBlockLocations", Class: "java.io.FileNotFoundException", Message: "File does not exist: " + src}
	}
	return l, err
}

// Rename2 renames src to dst, replacing dst if overwrite (one call).
func (n *NameNode) Rename2(src, dst string, overwrite bool) error {
	b := putString(nil, 1, src)
	b = putString(b, 2, dst)
	b = putBool(b, 3, overwrite)
	_, err := n.Call("rename2", b)
	return err
}

// ErrNoSuchFile is what Delete returns when src did not exist.
var ErrNoSuchFile = errors.New("no such file")

// Delete deletes src (one call); a missing src is an error wrapping
// [ErrNoSuchFile] and fs.ErrNotExist.
func (n *NameNode) Delete(src string, recursive bool) error {
	b := putString(nil, 1, src)
	b = putBool(b, 2, recursive)
	ok, err := n.boolCall("delete", b)
	if err == nil && !ok {
		return &RemoteError{Method: "delete", Class: "java.io.FileNotFoundException", Message: src + ": " + ErrNoSuchFile.Error()}
	}
	return err
}

// RenewLease renews the lease of this client's files being written.
func (n *NameNode) RenewLease() error {
	_, err := n.Call("renewLease", putString(nil, 1, n.ClientName))
	return err
}

// ServerDefaults fetches the NameNode's defaults.
func (n *NameNode) ServerDefaults() (Defaults, error) {
	var d Defaults
	resp, err := n.Call("getServerDefaults", nil)
	if err != nil {
		return d, err
	}
	d.ChecksumType = 1 // the proto's default
	err = each(resp, func(f field) error {
		if f.n != 1 {
			return nil
		}
		return each(f.v, func(g field) error {
			switch g.n {
			case 1:
				d.BlockSize = g.x
			case 2:
				d.BytesPerChecksum = uint32(g.x)
			case 3:
				d.WritePacketSize = uint32(g.x)
			case 4:
				d.Replication = uint32(g.x)
			case 6:
				d.EncryptData = g.x != 0
			case 8:
				d.ChecksumType = g.x
			}
			return nil
		})
	})
	return d, err
}
