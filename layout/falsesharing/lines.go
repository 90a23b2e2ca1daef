package falsesharing

// lineSize is the coherence granule the Go ecosystem pads for on each
// GOARCH: the cacheLineSize constants of golang.org/x/sys/cpu (cpu_*.go),
// which size cpu.CacheLinePad. wasm has none and gets 64.
var lineSize = map[string]int64{
	"386": 64, "amd64": 64, "arm": 32, "arm64": 128,
	"loong64": 64, "mips": 32, "mipsle": 32, "mips64": 32, "mips64le": 32,
	"ppc64": 128, "ppc64le": 128, "riscv64": 64, "s390x": 256, "wasm": 64,
}
