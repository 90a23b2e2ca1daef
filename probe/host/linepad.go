package host

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// cacheLinePad reports the padding x/sys/cpu uses for this GOARCH, which is
// also what the runtime and sync packages pad their per-P data with.
func cacheLinePad() LineSize {
	return LineSize{int64(unsafe.Sizeof(cpu.CacheLinePad{})), SourceXSysCPU}
}
