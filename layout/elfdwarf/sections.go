package elfdwarf

import (
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"strings"
)

// debugData returns the DWARF of an ELF file of size bytes, and its line
// tables where it has them at hand. Where the file's contents are at
// hand (image) and its debug sections need nothing done to them, the
// sections are used where they lie and only those that layouts read
// are opened: debug/elf's DWARF copies every debug section into the
// heap, a vmlinux's location lists and call frames too, which took a
// third of a one-struct lookup. Relocations (an object file's) and
// GNU's .zdebug_ sections are left to debug/elf.
func debugData(ef *elf.File, image []byte, size int64) (d *dwarf.Data, line []byte, err error) {
	if err := sectionsInside(ef, uint64(size)); err != nil {
		return nil, nil, err
	}
	if image == nil || !inPlace(ef) {
		d, err := ef.DWARF()
		return d, nil, err
	}
	sec := func(name string) ([]byte, error) {
		s := ef.Section(name)
		if s == nil || s.Type == elf.SHT_NOBITS {
			return nil, nil
		}
		return sectionBytes(s, image)
	}
	var data [4][]byte
	for i, name := range []string{".debug_abbrev", ".debug_info", ".debug_line", ".debug_str"} {
		b, err := sec(name)
		if err != nil {
			return nil, nil, err
		}
		data[i] = b
	}
	d, err = dwarf.New(data[0], nil, nil, data[1], data[2], nil, nil, data[3])
	if err != nil {
		return nil, nil, err
	}
	// DWARF 5's indirect strings and addresses, which entries refer to.
	for _, name := range []string{".debug_addr", ".debug_line_str", ".debug_str_offsets"} {
		b, err := sec(name)
		if err != nil {
			return nil, nil, err
		}
		if b != nil {
			if err := d.AddSection(name, b); err != nil {
				return nil, nil, err
			}
		}
	}
	// DWARF 4's type units, as debug/elf adds them.
	for i, s := range ef.Sections {
		if s.Name != ".debug_types" {
			continue
		}
		b, err := sectionBytes(s, image)
		if err != nil {
			return nil, nil, err
		}
		if err := d.AddTypes(fmt.Sprintf("types-%d", i), b); err != nil {
			return nil, nil, err
		}
	}
	return d, data[2], nil
}

// maxInflation bounds how much larger than its bytes in the file a
// compressed section may say it is: zlib inflates at most about 1032
// times, zstd more only for input no compiler writes.
const maxInflation = 1100

// sectionsInside checks that the sections debug/elf reads for the DWARF
// (the debug sections, their relocations and the symbols those refer
// to) lie inside a file of size bytes, and that a compressed one does
// not claim more than it can inflate to: debug/elf allocates what a
// section header says before reading it, so that a few corrupt bytes
// of a small file would cost megabytes and milliseconds.
func sectionsInside(ef *elf.File, size uint64) error {
	for _, s := range ef.Sections {
		switch {
		case s.Type == elf.SHT_NOBITS:
			continue
		case strings.HasPrefix(s.Name, ".debug_"), strings.HasPrefix(s.Name, ".zdebug_"),
			s.Type == elf.SHT_REL, s.Type == elf.SHT_RELA, s.Type == elf.SHT_SYMTAB, s.Type == elf.SHT_STRTAB:
		default:
			continue
		}
		if s.Offset > size || s.FileSize > size-s.Offset {
			return fmt.Errorf("section %s lies past the end of the file", s.Name)
		}
		inflated := uint64(0)
		switch {
		case s.Flags&elf.SHF_COMPRESSED != 0:
			inflated = s.Size
		case strings.HasPrefix(s.Name, ".zdebug_"):
			// GNU's header: "ZLIB" and the inflated size, big-endian.
			var head [12]byte
			if _, err := s.ReadAt(head[:], 0); err == nil && string(head[:4]) == "ZLIB" {
				inflated = binary.BigEndian.Uint64(head[4:])
			}
		}
		if inflated/maxInflation > s.FileSize {
			return fmt.Errorf("section %s says it inflates to %d bytes from %d", s.Name, inflated, s.FileSize)
		}
	}
	return nil
}

// sectionBytes returns a section's contents: a slice of the image, or
// inflated where the section is compressed (SHF_COMPRESSED).
func sectionBytes(s *elf.Section, image []byte) ([]byte, error) {
	if s.Flags&elf.SHF_COMPRESSED != 0 {
		return s.Data()
	}
	end := s.Offset + s.FileSize // inside: sectionsInside
	return image[s.Offset:end:end], nil
}

// inPlace reports whether an ELF file's debug sections can be read where
// they lie: none is a GNU .zdebug_ section, and no relocation section
// applies to one, which debug/elf does but for executables.
func inPlace(ef *elf.File) bool {
	for _, s := range ef.Sections {
		if strings.HasPrefix(s.Name, ".zdebug_") {
			return false
		}
		if ef.Type != elf.ET_EXEC && (s.Type == elf.SHT_REL || s.Type == elf.SHT_RELA) &&
			int(s.Info) < len(ef.Sections) && strings.HasPrefix(ef.Sections[s.Info].Name, ".debug_") {
			return false
		}
	}
	return true
}
