package elfdwarf

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// file is an open ELF file with its debug information.
type file struct {
	path string
	os   *os.File
	// image is the file's contents, mapped (or given to loadBytes); nil
	// when they are read through debug/elf. unmap releases a mapping.
	image []byte
	unmap func()
	elf   *elf.File
	dw    *dwarf.Data
	arch  string // GOARCH-style name of the target
	// maxAlign caps the natural alignment of a C scalar: 4 on 386, where
	// long long and double are 4-aligned in structs; 16 on x86-64 and
	// arm64 (long double, __int128).
	maxAlign  int64
	bigEndian bool
	// line holds the line tables (.debug_line, inflated), as debugData
	// found them or, when it did not, read when first needed (lineRead).
	line     []byte
	lineRead bool
}

// open opens path and its DWARF. arch, when not empty, must name the
// file's architecture. Errors name the file and say what to do.
func open(path, arch string) (*file, error) {
	osf, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file (give an ELF object or binary built with -g)", path)
		}
		return nil, fmt.Errorf("%s: %v", path, pathless(err))
	}
	st, err := osf.Stat()
	if err != nil {
		osf.Close()
		return nil, fmt.Errorf("%s: %v", path, pathless(err))
	}
	if st.IsDir() {
		osf.Close()
		return nil, fmt.Errorf("%s: a directory, not an ELF file (give an object or binary built with -g)", path)
	}
	image, unmap := mapFile(osf, st)
	var r io.ReaderAt = osf
	if image != nil {
		r = bytes.NewReader(image)
	}
	f, err := read(path, r, image, st.Size(), arch)
	if err != nil {
		unmap()
		osf.Close()
		return nil, err
	}
	f.os, f.unmap = osf, unmap
	return f, nil
}

// read reads an ELF file of size bytes and its DWARF from r, whose
// contents are image when they are at hand (nil otherwise); name is the
// file's, for errors.
func read(name string, r io.ReaderAt, image []byte, size int64, arch string) (*file, error) {
	ef, err := elf.NewFile(r)
	if err != nil {
		var magic [4]byte
		if _, rerr := r.ReadAt(magic[:], 0); rerr == nil && string(magic[:]) == elf.ELFMAG {
			return nil, fmt.Errorf("%s: truncated or corrupt ELF file (%v); rebuild it", name, oneLine(err.Error()))
		}
		return nil, fmt.Errorf("%s: not an ELF file; give an object, binary or vmlinux built with -g", name)
	}
	f := &file{path: name, elf: ef, image: image, bigEndian: ef.ByteOrder == binary.BigEndian}
	f.arch, f.maxAlign = target(ef)
	if arch != "" && arch != f.arch {
		ef.Close()
		return nil, fmt.Errorf("%s: an ELF file for %s, not %s (drop -arch: the file decides)", name, f.arch, arch)
	}
	if ef.Section(".debug_info") == nil && ef.Section(".zdebug_info") == nil {
		ef.Close()
		return nil, fmt.Errorf("%s: no DWARF debug info (build it with -g; stripped files have none)", name)
	}
	f.dw, f.line, err = debugData(ef, image, size)
	if err != nil {
		ef.Close()
		return nil, corrupt(name, err)
	}
	return f, nil
}

func (f *file) close() {
	f.elf.Close()
	if f.unmap != nil {
		f.unmap()
	}
	if f.os != nil {
		f.os.Close()
	}
}

// corrupt wraps an error from debug/elf or debug/dwarf about the file's
// contents.
func corrupt(path string, err error) error {
	return fmt.Errorf("%s: corrupt or truncated DWARF (%v); rebuild the file with -g", path, oneLine(err.Error()))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// pathless drops the path from an *fs.PathError, which the caller names.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// target returns the GOARCH-style name of an ELF file's architecture and
// the largest natural alignment of a C scalar on it.
func target(f *elf.File) (string, int64) {
	is64 := f.Class == elf.ELFCLASS64
	le := f.ByteOrder == binary.LittleEndian
	switch f.Machine {
	case elf.EM_X86_64:
		if is64 {
			return "amd64", 16
		}
		return "amd64p32", 16
	case elf.EM_386:
		return "386", 4
	case elf.EM_AARCH64:
		return "arm64", 16
	case elf.EM_ARM:
		return "arm", 8
	case elf.EM_PPC64:
		if le {
			return "ppc64le", 16
		}
		return "ppc64", 16
	case elf.EM_PPC:
		return "ppc", 8
	case elf.EM_S390:
		if is64 {
			return "s390x", 8
		}
		return "s390", 8
	case elf.EM_RISCV:
		if is64 {
			return "riscv64", 16
		}
		return "riscv", 16
	case elf.EM_MIPS, elf.EM_MIPS_RS3_LE:
		name := "mips"
		if is64 {
			name = "mips64"
		}
		if le {
			name += "le"
		}
		return name, 8
	case elf.EM_LOONGARCH:
		return "loong64", 16
	case elf.EM_SPARCV9:
		return "sparc64", 16
	}
	return strings.ToLower(strings.TrimPrefix(f.Machine.String(), "EM_")), 16
}
