package placement

import (
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/mglayout/mglayout/layout"
)

// skipUnlessPlainRuntime skips a test that compares predictions with the
// running allocator when something other than the rules decides placement.
func skipUnlessPlainRuntime(t *testing.T) {
	t.Helper()
	if instrumented {
		t.Skip("built with -race, -asan or -msan, which change how the runtime allocates")
	}
	if strings.Contains(os.Getenv("GODEBUG"), "sbrk=1") {
		t.Skip("GODEBUG=sbrk=1 replaces the allocator with a bump allocator")
	}
	if _, ok := arches[runtime.GOARCH]; !ok {
		t.Skipf("GOARCH %s is not modeled", runtime.GOARCH)
	}
}

// TestHeapAgainstRuntime allocates many objects of each size, with and
// without pointers, and checks that every address falls on a predicted
// phase. Where several phases are predicted and many objects were
// allocated, it also checks that the objects did not all land on one, which
// would mean the prediction is looser than the allocator without the
// subset check noticing. More than that is not certain: which slots of a
// span are free depends on the rest of the process.
func TestHeapAgainstRuntime(t *testing.T) {
	skipUnlessPlainRuntime(t)
	ptrSize := int64(unsafe.Sizeof(uintptr(0)))
	sizes := []int64{1, 2, 3, 4, 6, 8, 12, 15, 16, 24, 48, 56, 64, 72, 96, 120, 136, 200, 320, 504, 512, 520, 600, 1000, 3000, 4096, 32760, 33000}
	for _, size := range sizes {
		for _, pointers := range []bool{false, true} {
			// An array of pointers holds pointers in every word; an
			// array of bytes holds none.
			var typ reflect.Type
			switch {
			case !pointers:
				typ = reflect.ArrayOf(int(size), reflect.TypeFor[byte]())
			case size%ptrSize == 0:
				typ = reflect.ArrayOf(int(size/ptrSize), reflect.TypeFor[*byte]())
			default:
				continue
			}
			n := 2000
			if size > 4096 {
				n = 100
			}
			keep := make([]reflect.Value, n) // alive until the checks end
			for i := range keep {
				keep[i] = reflect.New(typ)
			}
			s := &layout.Struct{Name: typ.String(), Source: layout.SourceGo, Arch: runtime.GOARCH, Size: size, Align: 1, Pointers: pointers}
			for _, line := range []int64{64, 128} {
				p, err := Phases(s, line, Heap)
				if err != nil {
					t.Fatal(err)
				}
				var seen []int64
				for _, v := range keep {
					if phase := int64(v.Pointer()) % line; !slices.Contains(seen, phase) {
						seen = append(seen, phase)
					}
				}
				slices.Sort(seen)
				if outside := slices.DeleteFunc(slices.Clone(seen), func(ph int64) bool { return slices.Contains(p.Phases, ph) }); len(outside) > 0 {
					t.Errorf("new(%s) at phases %v of %d, predicted %v (%s)", typ, outside, line, p.Phases, p.Reason)
				} else if len(p.Phases) > 1 && n >= 1000 && len(seen) < 2 {
					t.Errorf("new(%s): %d objects all at phase %v of %d, predicted %v (%s)", typ, n, seen, line, p.Phases, p.Reason)
				}
			}
			runtime.KeepAlive(keep)
		}
	}
}
