package placement

import (
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
)

// TestPolicy checks that a policy unites its contexts' phases and names
// each context's reason, and that For picks Declared for a declared
// alignment and the source's contexts otherwise.
func TestPolicy(t *testing.T) {
	s := goStruct("amd64", 72, false) // size class 80: phases 0, 16, 32, 48
	s.Align = 8
	heap, err := Phases(s, 64, Heap)
	if err != nil {
		t.Fatal(err)
	}
	phases, reason := Policy{Heap, Element}.Phases(s, 64)
	if want := steps(8, 64); !slices.Equal(phases, want) {
		t.Errorf("heap and element phases = %v, want %v (every multiple of 8)", phases, want)
	}
	if !strings.HasPrefix(reason, "heap: "+heap.Reason+"; element: an element of an array or slice") {
		t.Errorf("reason %q, want the heap's and the element's, each named", reason)
	}
	if got, _ := (Policy{Heap}).Phases(s, 64); !slices.Equal(got, heap.Phases) {
		t.Errorf("heap alone = %v, want %v", got, heap.Phases)
	}
	if got := For(s, true); !slices.Equal(got, Policy{Declared}) {
		t.Errorf("For(declared) = %v, want [declared]", got)
	}
	if got := For(s, false); !slices.Equal(got, Policy{Heap, Global}) {
		t.Errorf("For(Go type) = %v, want [heap global]", got)
	}
	if got := For(&layout.Struct{Source: layout.SourceKernel}, false); !slices.Equal(got, Policy{Declared}) {
		t.Errorf("For(kernel) = %v, want [declared]", got)
	}
}
