package host

import (
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// TestDetect runs on the machine that runs the tests, whatever it is; it
// only asserts what holds on every host.
func TestDetect(t *testing.T) {
	info, err := Detect()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("caches %+v, line sizes %v, notes %q", info.Caches, info.LineSizes(), info.Notes)
	if info.GOOS != runtime.GOOS || info.GOARCH != runtime.GOARCH {
		t.Errorf("GOOS/GOARCH = %s/%s, want %s/%s", info.GOOS, info.GOARCH, runtime.GOOS, runtime.GOARCH)
	}
	if runtime.GOOS == "linux" {
		if len(info.Affinity) == 0 {
			t.Errorf("empty affinity mask")
		}
		if !slices.IsSorted(info.Affinity) {
			t.Errorf("affinity mask %v is not sorted", info.Affinity)
		}
	}
	// Every x86 CPU since the Pentium 4 has 64-byte lines.
	if runtime.GOARCH == "amd64" && !slices.Contains(info.LineSizes(), 64) {
		t.Errorf("LineSizes() = %v on amd64, want 64 among them", info.LineSizes())
	}
	for _, n := range info.LineSizes() {
		if n <= 0 || n&(n-1) != 0 {
			t.Errorf("line size %d is not a power of two", n)
		}
	}
}

func TestCacheLinePad(t *testing.T) {
	want := LineSize{int64(unsafe.Sizeof(cpu.CacheLinePad{})), SourceXSysCPU}
	info, err := DetectFrom("testdata/x86")
	if err != nil {
		t.Fatal(err)
	}
	if info.CacheLinePad != want {
		t.Errorf("CacheLinePad = %+v, want %+v", info.CacheLinePad, want)
	}
}
