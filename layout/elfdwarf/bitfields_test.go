package elfdwarf

import "testing"

// TestBitPosition decodes both forms of a bitfield's place, with values
// gcc writes (see testdata/c/layout_features.c).
func TestBitPosition(t *testing.T) {
	for _, tc := range []struct {
		name      string
		m         member
		typeSize  int64
		bigEndian bool
		want      int64
	}{
		// DWARF 4 and 5: the bit offset from the start of the struct.
		{"data_bit_offset", member{loc: -1, dataBitOff: 104, bitSize: 4}, 2, false, 104},
		// DWARF 2 and 3 on x86-64: u64 big:40 in an 8-byte unit at 8,
		// 24 bits from its most significant end.
		{"bit_offset", member{loc: 8, dataBitOff: -1, bitOff: 24, hasBitOff: true, byteSize: 8, bitSize: 40}, 8, false, 64},
		// A packed struct's field that reaches past its unit: gcc writes a
		// negative DW_AT_bit_offset.
		{"bit_offset past the unit", member{loc: 4, dataBitOff: -1, bitOff: -2, hasBitOff: true, byteSize: 8, bitSize: 50}, 8, false, 48},
		// No DW_AT_byte_size: the unit is the type's.
		{"bit_offset, type's unit", member{loc: 0, dataBitOff: -1, bitOff: 21, hasBitOff: true, byteSize: -1, bitSize: 3}, 4, false, 8},
		// Big-endian: the offset counts in memory order already.
		{"big-endian bit_offset", member{loc: 0, dataBitOff: -1, bitOff: 8, hasBitOff: true, byteSize: 4, bitSize: 3}, 4, true, 8},
	} {
		got, err := bitPosition(&tc.m, tc.typeSize, tc.bigEndian)
		if err != nil || got != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
	if _, err := bitPosition(&member{name: "x", loc: 0, dataBitOff: -1, bitOff: 40, hasBitOff: true, byteSize: 4, bitSize: 3}, 4, false); err == nil {
		t.Error("a bit offset past its unit: no error")
	}
}

func TestStorageUnit(t *testing.T) {
	for _, tc := range []struct{ pos, size, unit, bit int64 }{
		{8, 4, 0, 8},     // unsigned a:3 after a char
		{104, 2, 12, 8},  // unsigned short h:4 at bit 104
		{109, 4, 12, 13}, // enum col:2 at bit 109: pahole's 12:13
		{48, 8, 0, 48},   // a u64 field at bit 48 of a packed struct
	} {
		if u, b := storageUnit(tc.pos, tc.size); u != tc.unit || b != tc.bit {
			t.Errorf("storageUnit(%d, %d) = %d:%d, want %d:%d", tc.pos, tc.size, u, b, tc.unit, tc.bit)
		}
	}
}
