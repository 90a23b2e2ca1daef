package placement

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
)

func goStruct(arch string, size int64, pointers bool) *layout.Struct {
	return &layout.Struct{Name: fmt.Sprintf("T%d", size), Source: layout.SourceGo, Arch: arch, Size: size, Align: 1, Pointers: pointers}
}

// steps returns the multiples of step below line.
func steps(step, line int64) []int64 {
	var p []int64
	for off := int64(0); off < line; off += step {
		p = append(p, off)
	}
	return p
}

func TestDeclared(t *testing.T) {
	for _, tc := range []struct {
		source       layout.Source
		align, line  int64
		want         []int64
		reasonSubstr string
	}{
		{layout.SourceKernel, 64, 128, []int64{0, 64}, "aligned to 64 (____cacheline_aligned"},
		{layout.SourceKernel, 64, 64, []int64{0}, "aligned to 64"},
		{layout.SourceDWARF, 128, 64, []int64{0}, "aligned to 128"},
		{layout.SourceDWARF, 8, 64, steps(8, 64), "aligned to 8"},
		{layout.SourceGo, 32, 128, []int64{0, 32, 64, 96}, "//mglayout:align"},
	} {
		s := &layout.Struct{Name: "s", Source: tc.source, Arch: "arm64", Size: 200, Align: tc.align}
		p, err := Phases(s, tc.line, Declared)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Phases, tc.want) || p.Context != Declared || !strings.Contains(p.Reason, tc.reasonSubstr) {
			t.Errorf("%s align %d line %d: %v %q, want %v and %q", tc.source, tc.align, tc.line, p.Phases, p.Reason, tc.want, tc.reasonSubstr)
		}
	}
}

func TestContexts(t *testing.T) {
	for src, want := range map[layout.Source][]Context{
		layout.SourceKernel: {Declared},
		layout.SourceDWARF:  {Declared},
		layout.SourceGo:     {Heap, Global},
	} {
		if got := Contexts(&layout.Struct{Source: src}); !slices.Equal(got, want) {
			t.Errorf("Contexts(%s) = %v, want %v", src, got, want)
		}
	}
}

func TestHeap(t *testing.T) {
	for _, tc := range []struct {
		arch     string
		size     int64
		pointers bool
		line     int64
		want     []int64
		reason   string
	}{
		// Zero size: the zerobase.
		{"amd64", 0, false, 64, nil, "zerobase"},
		// Tiny: 16-byte blocks, offsets aligned by the size's low bits.
		{"amd64", 1, false, 64, steps(1, 64), "tiny allocator"},
		{"amd64", 6, false, 64, []int64{0, 2, 4, 6, 8, 10, 16, 18, 20, 22, 24, 26, 32, 34, 36, 38, 40, 42, 48, 50, 52, 54, 56, 58}, "2-aligned"},
		{"amd64", 8, false, 64, steps(8, 64), "8-aligned"},
		{"amd64", 12, false, 64, []int64{0, 4, 16, 20, 32, 36, 48, 52}, "4-aligned"},
		{"386", 12, false, 64, steps(16, 64), "8-aligned"}, // issue 37262
		{"amd64", 15, false, 128, []int64{0, 1, 16, 17, 32, 33, 48, 49, 64, 65, 80, 81, 96, 97, 112, 113}, "1-aligned"},
		// A pointerful object is never tiny.
		{"amd64", 8, true, 64, steps(8, 64), "size class 8"},
		{"amd64", 12, true, 64, steps(16, 64), "size class 16"},
		// Small noscan, at and around class boundaries.
		{"amd64", 16, false, 64, steps(16, 64), "size class 16"},
		{"amd64", 24, false, 64, steps(8, 64), "size class 24"},
		{"amd64", 48, false, 64, steps(16, 64), "size class 48"},
		{"amd64", 48, false, 128, steps(16, 128), "size class 48"},
		{"amd64", 49, false, 64, []int64{0}, "size class 64"},
		{"amd64", 64, false, 128, []int64{0, 64}, "size class 64"},
		{"amd64", 65, false, 128, steps(16, 128), "size class 80"},
		{"amd64", 128, false, 128, []int64{0}, "size class 128"},
		{"amd64", 520, false, 64, []int64{0}, "size class 576"},
		{"amd64", 520, false, 128, []int64{0, 64}, "size class 576"},
		{"amd64", 1300, false, 128, []int64{0}, "size class 1408 (11 per 16384-byte span)"},
		{"amd64", 4096, false, 128, []int64{0}, "size class 4096"},
		// Small pointerful: no header up to 512 bytes on 64-bit ...
		{"amd64", 136, true, 64, steps(16, 64), "size class 144"},
		{"amd64", 504, true, 64, []int64{0}, "size class 512"},
		{"amd64", 512, true, 128, []int64{0}, "size class 512"},
		// ... and an 8-byte header above it.
		{"amd64", 520, true, 64, []int64{8}, "8-byte malloc header, then size class 576"},
		{"amd64", 520, true, 128, []int64{8, 72}, "size class 576"},
		{"amd64", 3000, true, 64, []int64{8}, "size class 3072"},
		{"amd64", 32760, true, 64, []int64{8}, "size class 32768"},
		// On 32-bit GOARCHes the header starts above 128 bytes.
		{"386", 128, true, 64, []int64{0}, "size class 128"},
		{"386", 136, true, 64, []int64{8, 24, 40, 56}, "136 B > 128: an 8-byte malloc header, then size class 144"},
		{"arm", 504, true, 64, []int64{8}, "size class 512"},
		{"386", 504, false, 64, []int64{0}, "size class 512"},
		// Large: beyond maxSmallSize less the header, pointers or not.
		{"amd64", 32760, false, 128, []int64{0}, "size class 32768"},
		{"amd64", 32761, false, 128, []int64{0}, "large object"},
		{"amd64", 33000, true, 128, []int64{0}, "large object"},
		{"386", 1 << 20, true, 4096, []int64{0}, "large object"},
	} {
		name := fmt.Sprintf("%s/%d/pointers=%v/line=%d", tc.arch, tc.size, tc.pointers, tc.line)
		p, err := Phases(goStruct(tc.arch, tc.size, tc.pointers), tc.line, Heap)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(p.Phases, tc.want) || !strings.Contains(p.Reason, tc.reason) || p.Context != Heap {
			t.Errorf("%s: %v %q\nwant %v and %q", name, p.Phases, p.Reason, tc.want, tc.reason)
		}
	}
}

// TestHeapInvariants checks what holds for every size: phases are sorted
// and distinct, below the line, multiples of the allocator's minimum
// alignment (8 outside the tiny allocator), and consistent across line
// sizes: the phases on a 128-byte line, taken modulo 64, are those on a
// 64-byte line.
func TestHeapInvariants(t *testing.T) {
	var sizes []int64
	for size := int64(1); size <= 1100; size++ {
		sizes = append(sizes, size)
	}
	for size := int64(1101); size <= 33000; size += 61 {
		sizes = append(sizes, size)
	}
	for _, arch := range []string{"amd64", "386"} {
		for _, pointers := range []bool{false, true} {
			for _, size := range sizes {
				var prev []int64
				for _, line := range []int64{64, 128} {
					p, err := Phases(goStruct(arch, size, pointers), line, Heap)
					if err != nil {
						t.Fatal(err)
					}
					align := int64(8)
					if !pointers && size < tinySize {
						align = tinyAlign(size, arches[arch])
					}
					if len(p.Phases) == 0 || !slices.IsSorted(p.Phases) || len(slices.Compact(slices.Clone(p.Phases))) != len(p.Phases) {
						t.Fatalf("%s %d pointers=%v line %d: phases %v", arch, size, pointers, line, p.Phases)
					}
					for _, ph := range p.Phases {
						if ph < 0 || ph >= line || ph%align != 0 {
							t.Fatalf("%s %d pointers=%v line %d: phase %d (%s)", arch, size, pointers, line, ph, p.Reason)
						}
					}
					if prev != nil {
						folded := spread(p.Phases, line, 64)
						if !slices.Equal(folded, prev) {
							t.Fatalf("%s %d pointers=%v: line 128 gives %v mod 64, line 64 gives %v", arch, size, pointers, folded, prev)
						}
					}
					prev = p.Phases
				}
			}
		}
	}
}

func TestGlobal(t *testing.T) {
	for _, tc := range []struct {
		arch       string
		size, line int64
		want       []int64
	}{
		{"amd64", 0, 64, steps(1, 64)},
		{"amd64", 1, 64, steps(1, 64)},
		{"amd64", 3, 64, steps(2, 64)},
		{"amd64", 8, 64, steps(8, 64)},
		{"amd64", 12, 64, steps(8, 64)},
		{"amd64", 24, 64, steps(16, 64)},
		{"amd64", 40, 128, steps(32, 128)},
		{"amd64", 4096, 64, []int64{0, 32}},
		{"arm64", 200, 128, steps(32, 128)},
		{"arm", 64, 64, steps(8, 64)},
		{"386", 24, 64, steps(16, 64)},
		{"s390x", 1, 64, steps(2, 64)},
		{"wasm", 16, 16, []int64{0}},
	} {
		p, err := Phases(goStruct(tc.arch, tc.size, false), tc.line, Global)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Phases, tc.want) || p.Context != Global {
			t.Errorf("%s size %d line %d: %v (%s), want %v", tc.arch, tc.size, tc.line, p.Phases, p.Reason, tc.want)
		}
	}
}

func TestPhasesErrors(t *testing.T) {
	kernel := &layout.Struct{Name: "tk_core", Source: layout.SourceKernel, Arch: "amd64", Size: 64, Align: 64}
	for _, tc := range []struct {
		s    *layout.Struct
		line int64
		ctx  Context
		want string
	}{
		{kernel, 64, Heap, "use declared"},
		{kernel, 64, Global, "use declared"},
		{goStruct("sparc64", 8, false), 64, Heap, `GOARCH "sparc64"`},
		{goStruct("amd64", 8, false), 48, Heap, "line size 48"},
		{goStruct("amd64", 8, false), 64, Context(7), "unknown placement context 7"},
	} {
		_, err := Phases(tc.s, tc.line, tc.ctx)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Phases(%s, %d, %v): %v, want an error with %q", tc.s.Name, tc.line, tc.ctx, err, tc.want)
		}
	}
}

// TestStride checks the allocator's stride against its size classes: a
// 96-byte noscan object in class 96, a 100-byte one in 112, a pointerful
// 600-byte one with its 8-byte malloc header in class 640, and none for
// tiny or large objects.
func TestStride(t *testing.T) {
	for _, tc := range []struct {
		size     int64
		pointers bool
		want     int64
	}{
		{96, false, 96}, {100, false, 112}, {600, true, 640}, {8, false, 0}, {8, true, 8}, {40000, false, 0},
	} {
		s := &layout.Struct{Name: "T", Source: layout.SourceGo, Arch: "amd64", Size: tc.size, Pointers: tc.pointers}
		got, err := Stride(s)
		if err != nil || got != tc.want {
			t.Errorf("Stride(%d bytes, pointers %v) = %d, %v; want %d", tc.size, tc.pointers, got, err, tc.want)
		}
	}
}
