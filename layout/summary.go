package layout

// Summary holds the figures pahole prints under a struct, for one
// aggregate: its direct members, the bytes and bits they hold, the holes
// between them and the padding after them.
type Summary struct {
	Size    int64
	Members int   // direct members, anonymous ones included
	Bytes   int64 // sum of the sizes of the members that are not bitfields: "sum members"
	Bits    int64 // sum of the widths of the bitfields: "sum bitfield members"

	Holes    int   // byte holes between members: "holes"
	HoleSum  int64 // "sum holes"
	BitHoles int   // bits left unused between bitfields: "bit holes"
	BitSum   int64 // "sum bit holes", in bits

	Padding    int64 // bytes after the last member: "padding"
	BitPadding int64 // bits after a final bitfield: "bit_padding"

	// Paddings counts the members declared "struct T" whose type ends in
	// padding, and PaddingSum adds that padding up: "paddings".
	Paddings   int
	PaddingSum int64

	// Forced counts the members whose alignment an attribute forced, and
	// ForcedHoles and ForcedSum the holes right before them: "forced
	// alignments", "forced holes", "sum forced holes".
	Forced      int
	ForcedHoles int
	ForcedSum   int64
}

// Summary returns pahole's figures for the aggregate at index parent (-1
// for the outermost object).
func (s *Struct) Summary(parent int) Summary {
	sum := Summary{Size: s.sizeOf(parent)}
	members := s.Members(parent)
	sum.Members = len(members)
	for _, i := range members {
		f := &s.Fields[i]
		if f.BitSize > 0 {
			sum.Bits += f.BitSize
		} else {
			sum.Bytes += f.Size
		}
		if f.Kind == KindStruct && !f.ViaTypedef {
			if p := s.TailPadding(i); p > 0 {
				sum.Paddings++
				sum.PaddingSum += p
			}
		}
	}
	holeBefore := map[int]int64{} // member index -> bytes of the hole before it
	gaps := s.Gaps(parent)
	for _, g := range gaps {
		if g.Bytes > 0 {
			sum.Holes++
			sum.HoleSum += g.Bytes
		}
		if g.Bits > 0 {
			sum.BitHoles++
			sum.BitSum += g.Bits
		}
	}
	prev := -1
	for _, i := range members {
		for _, g := range gaps {
			if g.After == prev {
				holeBefore[i] = g.Bytes
			}
		}
		prev = i
	}
	for _, i := range members {
		if s.Fields[i].ForcedAlign {
			sum.Forced++
			if h := holeBefore[i]; h > 0 {
				sum.ForcedHoles++
				sum.ForcedSum += h
			}
		}
	}
	if parent < 0 || s.Fields[parent].Kind != KindUnion {
		sum.Padding = s.TailPadding(parent)
		sum.BitPadding = s.BitPadding(parent)
	}
	return sum
}
