//go:build unix

package elfdwarf

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps a file's contents read-only, or returns nil when it
// cannot (an empty file, a pipe): the sections are then read through
// debug/elf. The mapping is shared with the page cache, so a vmlinux's
// 600 MB are not copied into the heap.
func mapFile(f *os.File, st os.FileInfo) (data []byte, unmap func()) {
	if !st.Mode().IsRegular() || st.Size() <= 0 || int64(int(st.Size())) != st.Size() {
		return nil, func() {}
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_PRIVATE)
	if err != nil {
		return nil, func() {}
	}
	return data, func() { unix.Munmap(data) }
}
