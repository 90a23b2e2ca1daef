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
	end := s.start(parent)
	for _, i := range s.Members(parent) {
		f := &s.Fields[i]
		if f.Offset > end {
			holes = append(holes, Hole{In: parent, Offset: end, Size: f.Offset - end})
		}
		end = max(end, f.byteEnd())
	}
	return holes
}

func (s *Struct) start(parent int) int64 {
	if parent < 0 {
		return 0
	}
	return s.Fields[parent].Offset
}

// TailPadding returns the bytes between the end of the last member of the
// aggregate at index parent (-1 for the outermost object) and its end.
func (s *Struct) TailPadding(parent int) int64 {
	end, size := s.start(parent), s.Size
	if parent >= 0 {
		size = s.Fields[parent].End()
	}
	members := s.Members(parent)
	if len(members) == 0 {
		return 0
	}
	for _, i := range members {
		end = max(end, s.Fields[i].byteEnd())
	}
	return size - end
}
