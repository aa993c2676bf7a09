package hwire

import (
	"net"
	"strconv"
)

// Block is an ExtendedBlockProto: a block's identity and, on the way to the
// NameNode, its length.
type Block struct {
	PoolID   string
	ID       uint64
	GenStamp uint64
	NumBytes uint64
}

func (b *Block) append(dst []byte) []byte {
	dst = putString(dst, 1, b.PoolID)
	dst = putUint(dst, 2, b.ID)
	dst = putUint(dst, 3, b.GenStamp)
	return putUint(dst, 4, b.NumBytes)
}

func (b *Block) decode(m []byte) error {
	return each(m, func(f field) error {
		switch f.n {
		case 1:
			b.PoolID = string(f.v)
		case 2:
			b.ID = f.x
		case 3:
			b.GenStamp = f.x
		case 4:
			b.NumBytes = f.x
		}
		return nil
	})
}

func (b Block) String() string {
	return "blk_" + strconv.FormatUint(b.ID, 10) + "_" + strconv.FormatUint(b.GenStamp, 10)
}

// Datanode is a DatanodeInfoProto as the NameNode sent it: Raw is sent back
// unchanged (write pipeline targets, excluded nodes), ID is its
// DatanodeIDProto (updatePipeline).
type Datanode struct {
	Raw      []byte
	ID       []byte
	IP, Host string
	UUID     string
	XferPort uint32
}

// Addr is the DataNode's data transfer address ip:port.
func (d *Datanode) Addr() string {
	return net.JoinHostPort(d.IP, strconv.FormatUint(uint64(d.XferPort), 10))
}

func (d *Datanode) decode(m []byte) error {
	d.Raw = m
	return each(m, func(f field) error {
		if f.n != 1 {
			return nil
		}
		d.ID = f.v
		return each(f.v, func(g field) error {
			switch g.n {
			case 1:
				d.IP = string(g.v)
			case 2:
				d.Host = string(g.v)
			case 3:
				d.UUID = string(g.v)
			case 4:
				d.XferPort = uint32(g.x)
			}
			return nil
		})
	})
}

// LocatedBlock is a LocatedBlockProto: a block, where it starts in the file,
// the DataNodes holding it (nearest first), their storages and the access
// token (raw TokenProto).
type LocatedBlock struct {
	B            Block
	Offset       uint64
	Locs         []Datanode
	Token        []byte
	StorageTypes []uint64
	StorageIDs   []string
}

func (lb *LocatedBlock) decode(m []byte) error {
	*lb = LocatedBlock{}
	return each(m, func(f field) error {
		switch f.n {
		case 1:
			return lb.B.decode(f.v)
		case 2:
			lb.Offset = f.x
		case 3:
			var d Datanode
			if err := d.decode(f.v); err != nil {
				return err
			}
			lb.Locs = append(lb.Locs, d)
		case 5:
			lb.Token = f.v
		case 7:
			return varints(f, func(x uint64) { lb.StorageTypes = append(lb.StorageTypes, x) })
		case 8:
			lb.StorageIDs = append(lb.StorageIDs, string(f.v))
		}
		return nil
	})
}

// End is the file offset just past the block.
func (lb *LocatedBlock) End() uint64 { return lb.Offset + lb.B.NumBytes }

// LocatedBlocks is a LocatedBlocksProto: the blocks of a file.
type LocatedBlocks struct {
	FileLength        uint64
	Blocks            []LocatedBlock
	UnderConstruction bool
	LastComplete      bool
}

func (l *LocatedBlocks) decode(m []byte) error {
	*l = LocatedBlocks{}
	return each(m, func(f field) error {
		switch f.n {
		case 1:
			l.FileLength = f.x
		case 2:
			var lb LocatedBlock
			if err := lb.decode(f.v); err != nil {
				return err
			}
			l.Blocks = append(l.Blocks, lb)
		case 3:
			l.UnderConstruction = f.x != 0
		case 5:
			l.LastComplete = f.x != 0
		}
		return nil
	})
}

// FileStatus is the part of an HdfsFileStatusProto the writer needs.
type FileStatus struct {
	Length      uint64
	Replication uint32
	BlockSize   uint64
	FileID      uint64
}

func (s *FileStatus) decode(m []byte) error {
	return each(m, func(f field) error {
		switch f.n {
		case 3:
			s.Length = f.x
		case 10:
			s.Replication = uint32(f.x)
		case 11:
			s.BlockSize = f.x
		case 13:
			s.FileID = f.x
		}
		return nil
	})
}

// Defaults is the part of FsServerDefaultsProto a writer needs.
type Defaults struct {
	BlockSize        uint64
	BytesPerChecksum uint32
	WritePacketSize  uint32
	Replication      uint32
	ChecksumType     uint64 // 1 CRC32, 2 CRC32C
	// EncryptData: the cluster encrypts data transfer
	// (dfs.encrypt.data.transfer), which this package does not speak.
	EncryptData bool
}
