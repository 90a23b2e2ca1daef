package probe

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pageSize is the granule of the arena; objects never share a page with
// anything the runtime owns.
const pageSize = 4096

// arena is memory from mmap, outside the Go heap, where objects are placed
// at exact offsets from line boundaries.
type arena struct {
	mem []byte
}

func newArena(size int) (*arena, error) {
	size = (size + pageSize - 1) / pageSize * pageSize
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, fmt.Errorf("mmap of %d bytes: %v", size, err)
	}
	return &arena{mem: mem}, nil
}

// at returns the address of byte off of the arena.
func (a *arena) at(off int64) unsafe.Pointer {
	if off < 0 || off >= int64(len(a.mem)) {
		panic(fmt.Sprintf("probe: offset %d outside the %d-byte arena", off, len(a.mem)))
	}
	return unsafe.Pointer(&a.mem[off])
}

// base is the arena's first address, page-aligned by mmap.
func (a *arena) base() uintptr { return uintptr(unsafe.Pointer(&a.mem[0])) }

func (a *arena) close() error {
	if a.mem == nil {
		return nil
	}
	err := unix.Munmap(a.mem)
	a.mem = nil
	return err
}
