package gosrc

import "go/types"

// linePad is the size of golang.org/x/sys/cpu.CacheLinePad on each GOARCH:
// the cacheLineSize constants of x/sys/cpu's cpu_*.go, which the standard
// library's internal/cpu.CacheLinePad follows too. wasm has none and gets
// 64. go/types sizes the type for the GOARCH the package was checked for;
// laying it out for another GOARCH needs that GOARCH's size.
var linePad = map[string]int64{
	"386": 64, "amd64": 64, "arm": 32, "arm64": 128,
	"loong64": 64, "mips": 32, "mipsle": 32, "mips64": 32, "mips64le": 32,
	"ppc64": 128, "ppc64le": 128, "riscv64": 64, "s390x": 256, "wasm": 64,
}

// LinePadSize returns the line size the Go ecosystem pads for on a GOARCH,
// and whether the GOARCH is known.
func LinePadSize(arch string) (int64, bool) {
	n, ok := linePad[arch]
	return n, ok
}

// isCacheLinePad reports whether t is a CacheLinePad of x/sys/cpu or
// internal/cpu.
func isCacheLinePad(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Name() != "CacheLinePad" || n.Obj().Pkg() == nil {
		return false
	}
	path := n.Obj().Pkg().Path()
	return path == "golang.org/x/sys/cpu" || path == "internal/cpu"
}
