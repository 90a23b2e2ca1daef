package elfdwarf

import "fmt"

// bitPosition returns where a bitfield's first bit is, in bits from the
// start of the struct or union holding it (bit 0 is the least significant
// bit of the first byte on a little-endian target, the most significant on
// a big-endian one: memory order either way).
//
// DWARF 4 and later give it directly as DW_AT_data_bit_offset. DWARF 2 and
// 3 (and gcc's DWARF 4) give DW_AT_bit_offset instead: the bits from the
// most significant bit of a storage unit of DW_AT_byte_size bytes at
// DW_AT_data_member_location to the most significant bit of the field,
// which on a little-endian target counts from the far end.
func bitPosition(m *member, typeSize int64, bigEndian bool) (int64, error) {
	loc := max(m.loc, 0)
	switch {
	case m.dataBitOff >= 0:
		return loc*8 + m.dataBitOff, nil
	case m.hasBitOff:
		unit := m.byteSize
		if unit <= 0 {
			unit = typeSize
		}
		if bigEndian {
			return loc*8 + m.bitOff, nil
		}
		pos := loc*8 + unit*8 - m.bitOff - m.bitSize
		if pos < 0 {
			return 0, fmt.Errorf("bitfield %s: DW_AT_bit_offset %d and width %d do not fit a %d-byte unit", m.name, m.bitOff, m.bitSize, unit)
		}
		return pos, nil
	}
	return loc * 8, nil
}

// storageUnit places a bitfield whose first bit is at pos the way pahole
// shows it: in the naturally aligned unit of its type's size holding that
// bit. It returns the unit's byte offset and the bitfield's first bit past
// the unit's start.
func storageUnit(pos, typeSize int64) (byteOff, bitOff int64) {
	unit := typeSize * 8
	if unit <= 0 {
		return pos / 8, pos % 8
	}
	byteOff = pos / unit * unit / 8
	return byteOff, pos - byteOff*8
}
