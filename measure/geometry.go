package measure

import (
	"math"
	"math/bits"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// geometry is the counts-array layout of an hdrhistogram-go Histogram with
// lowest discernible value 1, so that recorders can count into plain int64
// arrays with atomic adds and the collector can turn such an array into a
// Histogram with hdrhistogram.Import. The formulas are HdrHistogram's.
type geometry struct {
	highest   int64 // highest trackable value, µs
	digits    int   // significant decimal digits
	halfMag   uint  // log2(sub-bucket half count)
	half      int64 // sub-bucket half count
	mask      int64 // sub-bucket mask (unit magnitude 0)
	countsLen int
	// What recorders keep besides the HDR counts (Options.Buckets, Raw).
	msBuckets int
	raw       bool
}

func newGeometry(highest int64, digits int) geometry {
	subCountMag := int(math.Ceil(math.Log2(2 * math.Pow10(digits))))
	halfMag := max(subCountMag, 1) - 1
	subCount := int64(1) << (halfMag + 1)
	buckets := 1
	for smallest := subCount; smallest <= highest; smallest <<= 1 {
		if smallest > math.MaxInt64/2 {
			buckets++
			break
		}
		buckets++
	}
	return geometry{
		highest: highest, digits: digits,
		halfMag: uint(halfMag), half: subCount / 2, mask: subCount - 1,
		countsLen: (buckets + 1) * int(subCount/2),
	}
}

// index returns the counts index of value v, 0 <= v <= g.highest.
func (g *geometry) index(v int64) int {
	bucket := 64 - bits.LeadingZeros64(uint64(v|g.mask)) - int(g.halfMag+1)
	sub := v >> uint(bucket)
	return int((int64(bucket)+1)<<g.halfMag + sub - g.half)
}

// histogram returns a Histogram holding counts (which it copies).
func (g *geometry) histogram(counts []int64) *hdrhistogram.Histogram {
	return hdrhistogram.Import(&hdrhistogram.Snapshot{
		LowestTrackableValue:  1,
		HighestTrackableValue: g.highest,
		SignificantFigures:    int64(g.digits),
		Counts:                counts,
	})
}
