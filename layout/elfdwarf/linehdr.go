package elfdwarf

import (
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
)

// lineTableOK reports whether the line table of a unit is one that
// debug/dwarf's LineReader reads in time bounded by its size
// (lineTableSane).
func (f *file) lineTableOK(u *unit) bool {
	off, ok := u.entry.Val(dwarf.AttrStmtList).(int64)
	if !ok {
		return false
	}
	if !f.lineRead {
		f.lineRead = true
		if f.line == nil {
			f.line = lineSection(f.elf)
		}
	}
	return lineTableSane(f.line, off, f.elf.ByteOrder)
}

// lineSection returns the whole of a file's line tables, as debug/elf
// reads them: inflated where compressed, a SHF_COMPRESSED .debug_line or
// GNU's .zdebug_line. Nil when there is none or it cannot be read.
func lineSection(ef *elf.File) []byte {
	for _, name := range []string{".debug_line", ".zdebug_line"} {
		if sec := ef.Section(name); sec != nil {
			data, err := sec.Data()
			if err != nil {
				return nil
			}
			return data
		}
	}
	return nil
}

// lineTableSane reports whether the DWARF 5 line-table header at off in
// a .debug_line section holds directory and file counts its own length
// can hold. debug/dwarf's LineReader allocates and reads as many entries
// as the counts say, so a corrupt count makes it work for minutes on a
// few bytes; a header of an earlier version lists its entries up to a
// terminator and needs no check. Headers it cannot parse are not sane.
func lineTableSane(sec []byte, off int64, order binary.ByteOrder) bool {
	if off < 0 || off+4 > int64(len(sec)) {
		return false
	}
	b := sec[off:]
	p := 4
	length := int64(order.Uint32(b))
	offSize := 4
	if length == 0xffffffff {
		if len(b) < 12 {
			return false
		}
		length, p, offSize = int64(order.Uint64(b[4:])), 12, 8
	}
	if length < 0 || int64(p)+length > int64(len(b)) {
		return false
	}
	b = b[:int64(p)+length]
	if len(b) < p+2 {
		return false
	}
	version := order.Uint16(b[p:])
	p += 2
	if version < 5 {
		return true
	}
	// address_size, segment_selector_size, header_length, then the
	// fixed fields up to opcode_base and its opcode lengths.
	p += 2
	if len(b) < p+offSize {
		return false
	}
	var header int64
	if offSize == 8 {
		header = int64(order.Uint64(b[p:]))
	} else {
		header = int64(order.Uint32(b[p:]))
	}
	p += offSize
	if header < 0 || int64(p)+header > int64(len(b)) {
		return false
	}
	b = b[:int64(p)+header]
	p += 5 // minimum_instruction_length, maximum_operations_per_instruction, default_is_stmt, line_base, line_range
	if len(b) < p+1 {
		return false
	}
	opcodeBase := int(b[p])
	p += opcodeBase // opcode_base and standard_opcode_lengths
	r := &lineHdr{b: b, p: p, offSize: offSize}
	for range 2 { // directories, then files
		formats, ok := r.formats()
		if !ok {
			return false
		}
		n, ok := r.uleb()
		if !ok || n > uint64(len(b)-r.p) {
			return false // each entry takes a byte at least
		}
		for range n {
			for _, f := range formats {
				if !r.skip(f) {
					return false
				}
			}
		}
	}
	return true
}

// lineHdr reads a line-table header's entry formats and entries.
type lineHdr struct {
	b       []byte
	p       int
	offSize int
}

func (r *lineHdr) uleb() (uint64, bool) {
	var v uint64
	for shift := 0; r.p < len(r.b) && shift < 64; shift += 7 {
		c := r.b[r.p]
		r.p++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, true
		}
	}
	return 0, false
}

// formats reads an entry format list: a count, then pairs of content
// type and form, of which the forms are kept.
func (r *lineHdr) formats() ([]form, bool) {
	if r.p >= len(r.b) {
		return nil, false
	}
	n := int(r.b[r.p])
	r.p++
	var forms []form
	for range n {
		if _, ok := r.uleb(); !ok {
			return nil, false
		}
		f, ok := r.uleb()
		if !ok {
			return nil, false
		}
		forms = append(forms, form(f))
	}
	return forms, true
}

// form is an attribute form (DW_FORM_*).
type form uint64

// The forms a line-table header's entries use (DWARF 5, 6.2.4.1).
const (
	formBlock   form = 0x09
	formData1        = 0x0b
	formData2        = 0x05
	formData4        = 0x06
	formData8        = 0x07
	formData16       = 0x1e
	formString       = 0x08
	formStrp         = 0x0e
	formLineStr      = 0x1f
	formUdata        = 0x0f
	formStrx         = 0x1a
	formStrx1        = 0x25
	formStrx2        = 0x26
	formStrx4        = 0x28
)

// skip moves past one value of the form.
func (r *lineHdr) skip(f form) bool {
	n := 0
	switch f {
	case formData1, formStrx1:
		n = 1
	case formData2, formStrx2:
		n = 2
	case formData4, formStrx4:
		n = 4
	case formData8:
		n = 8
	case formData16:
		n = 16
	case formStrp, formLineStr:
		n = r.offSize
	case formUdata, formStrx:
		_, ok := r.uleb()
		return ok
	case formBlock:
		size, ok := r.uleb()
		if !ok || size > uint64(len(r.b)-r.p) {
			return false
		}
		n = int(size)
	case formString:
		for r.p < len(r.b) {
			r.p++
			if r.b[r.p-1] == 0 {
				return true
			}
		}
		return false
	default:
		return false
	}
	if n > len(r.b)-r.p {
		return false
	}
	r.p += n
	return true
}
