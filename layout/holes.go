package layout

// Hole is a gap between two members of one aggregate, as pahole reports
// "XXX N bytes hole, try to pack".
type Hole struct {
	In     int // index in Struct.Fields of the aggregate holding the gap, -1 for the outermost object
	Offset int64
	Size   int64
}

// byteEnd is the first byte past a member; a bitfield ends after the byte
// holding its last bit.
func (f *Field) byteEnd() int64 {
	if f.BitSize > 0 {
		return f.Offset + (f.BitOffset+f.BitSize+7)/8
	}
	return f.End()
}

// Holes returns the gaps between members of every struct at every depth,
// in the order of Fields. Members of a union overlap by design and leave no
// holes.
func (s *Struct) Holes() []Hole {
	var holes []Hole
	holes = append(holes, s.holesIn(-1)...)
	for i := range s.Fields {
		if s.Fields[i].Kind == KindStruct {
			holes = append(holes, s.holesIn(i)...)
		}
	}
	return holes
}

// DirectHoles returns the gaps between the members of the aggregate at index
// parent (-1 for the outermost object): the figure pahole summarises.
func (s *Struct) DirectHoles(parent int) []Hole { return s.holesIn(parent) }

func (s *Struct) holesIn(parent int) []Hole {
	if parent >= 0 && s.Fields[parent].Kind != KindStruct {
		return nil
	}
	var holes []Hole
	w := s.walk(parent)
	for _, g := range w.gaps {
		if g.Bytes > 0 {
			holes = append(holes, Hole{In: parent, Offset: g.Offset, Size: g.Bytes})
		}
	}
	return holes
}

func (s *Struct) start(parent int) int64 {
	if parent < 0 {
		return 0
	}
	return s.Fields[parent].Offset
}

func (s *Struct) sizeOf(parent int) int64 {
	if parent < 0 {
		return s.Size
	}
	return s.Fields[parent].Size
}

// TailPadding returns the bytes between the end of the last member of the
// aggregate at index parent (-1 for the outermost object) and its end.
// Bits left unused at the end of a final bitfield's storage unit are
// BitPadding, not TailPadding, as pahole counts them.
func (s *Struct) TailPadding(parent int) int64 {
	if parent >= 0 && s.Fields[parent].Kind == KindUnion {
		end, size := s.start(parent), s.Fields[parent].End()
		members := s.Members(parent)
		if len(members) == 0 {
			return 0
		}
		for _, i := range members {
			end = max(end, s.Fields[i].byteEnd())
		}
		return size - end
	}
	return s.walk(parent).padding
}

// BitPadding returns the bits between the last bitfield of the struct at
// index parent (-1 for the outermost object) and the end of its storage
// unit, when that bitfield ends the struct: pahole's "bit_padding".
func (s *Struct) BitPadding(parent int) int64 {
	if parent >= 0 && s.Fields[parent].Kind != KindStruct {
		return 0
	}
	return s.walk(parent).bitPadding
}

// Gap is what separates a member of a struct from the next one, in
// pahole's terms: whole bytes ("XXX 3 bytes hole") and bits left over in
// the storage unit of a bitfield ("XXX 5 bits hole").
type Gap struct {
	After  int   // index in Struct.Fields of the member before the gap; -1 before the first member
	Offset int64 // first byte of the byte hole
	Bytes  int64
	Bits   int64
}

// Gaps returns the gaps after the direct members of the struct at index
// parent (-1 for the outermost object), in member order; a union has none.
func (s *Struct) Gaps(parent int) []Gap {
	if parent >= 0 && s.Fields[parent].Kind != KindStruct {
		return nil
	}
	return s.walk(parent).gaps
}

type walked struct {
	gaps                []Gap
	padding, bitPadding int64
}

// walk finds the holes, bit holes and padding of the struct at parent as
// pahole's class__find_holes does, so that the figures agree with pahole's
// for bitfields too: bits left in a storage unit are a bit hole, a new
// storage unit (or a member that is not a bitfield) starts a byte hole.
// Bit positions are relative to the start of the struct. For members that
// are not bitfields this is the plain walk: a hole wherever a member starts
// past the end of the members before it.
func (s *Struct) walk(parent int) walked {
	var w walked
	start, size := s.start(parent), s.sizeOf(parent)
	members := s.Members(parent)
	if len(members) == 0 {
		return w
	}
	var (
		lastSeen   int64 // bits up to which members have been seen
		curEnd     = size * 8
		curSize    int64
		inBitfield bool
		last       = -1
	)
	for _, i := range members {
		f := &s.Fields[i]
		rel := f.Offset - start
		bitStart := rel*8 + f.BitOffset
		bitEnd := bitStart + f.Size*8
		if f.BitSize > 0 {
			bitEnd = bitStart + f.BitSize
		}
		g := Gap{After: last}
		if inBitfield {
			// Bits left in the storage unit of the bitfield before.
			end := min(bitStart, curEnd)
			g.Bits = end - lastSeen
			lastSeen = max(lastSeen, end)
		}
		if f.BitSize > 0 {
			aligned := rel * 8
			if lastSeen < aligned && aligned <= bitStart {
				g.Offset, g.Bytes = start+lastSeen/8, rel-lastSeen/8
				lastSeen = aligned
			}
			g.Bits += bitStart - lastSeen
			lastSeen = bitEnd
			inBitfield = true
			// A new storage unit, or a wider one: the unit ends where
			// the type's size says; a bitfield that crossed into the
			// next unit (packed structs) ends in that one.
			if unit := f.Size * 8; bitEnd > curEnd || unit > curSize {
				curSize = unit
				curEnd = aligned + unit
				if bitEnd > curEnd {
					curEnd += unit
				}
			}
		} else {
			g.Offset, g.Bytes = start+lastSeen/8, bitStart/8-lastSeen/8
			lastSeen = max(lastSeen, bitEnd)
			inBitfield, curSize, curEnd = false, 0, bitEnd
		}
		g.Bytes, g.Bits = max(g.Bytes, 0), max(g.Bits, 0)
		if g.Bytes > 0 || g.Bits > 0 {
			w.gaps = append(w.gaps, g)
		}
		last = i
	}
	if inBitfield {
		end := min(size*8, curEnd)
		w.bitPadding = max(end-lastSeen, 0)
		lastSeen = max(lastSeen, end)
	}
	w.padding = max(size-lastSeen/8, 0)
	return w
}
