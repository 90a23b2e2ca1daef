package falsesharing

import (
	"go/types"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/gosrc"
)

// memberVars is gosrc.MemberVars, kept per type for the pass: the
// checks ask about the same types' members many times. Types are
// compared by identity, as go/types hands out one object per declared or
// instantiated type.
func (h *hot) memberVars(t types.Type) map[string]*types.Var {
	if m, ok := h.vars[t]; ok {
		return m
	}
	if h.vars == nil {
		h.vars = map[types.Type]map[string]*types.Var{}
	}
	m := gosrc.MemberVars(t)
	h.vars[t] = m
	return m
}

// minLinePad is the smallest pad taken for cache-line padding: shorter
// blank arrays align members or fill out a wire format.
const minLinePad = 32

// paddedMembers returns the members that cache-line padding sits beside,
// in any struct within typ (elements of arrays included): padding is its
// author's declaration that they are written concurrently, and the
// padding's own rules (FS3, FS4) judge whether it keeps them apart.
func (h *hot) paddedMembers(typ types.Type) []string {
	vars := h.memberVars(typ)
	parents := map[string]bool{}
	for path, v := range vars {
		if linePad(v) {
			parents[parentOf(path)] = true
		}
	}
	var out []string
	for path, v := range vars {
		if !parents[parentOf(path)] || linePad(v) || v.Name() == "_" || isPointerLike(v.Type()) {
			continue
		}
		out = append(out, path)
	}
	return out
}

// linePad reports whether a member is cache-line padding: x/sys/cpu's
// CacheLinePad, or a blank or pad-named byte array of minLinePad bytes
// or more.
func linePad(v *types.Var) bool {
	if n, ok := types.Unalias(v.Type()).(*types.Named); ok && n.Obj().Name() == "CacheLinePad" {
		return true
	}
	if v.Name() != "_" && !layout.PadName(v.Name()) {
		return false
	}
	a, ok := v.Type().Underlying().(*types.Array)
	if !ok {
		return false
	}
	b, ok := a.Elem().Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Byte || b.Kind() == types.Uint64 || b.Kind() == types.Uintptr) && a.Len()*size(b) >= minLinePad
}

func size(b *types.Basic) int64 {
	if b.Kind() == types.Byte {
		return 1
	}
	return 8
}

// parentOf is the path of the struct holding a member: "" at the top,
// "a[]" for a.b's... of a[].b.
func parentOf(path string) string {
	if i := strings.LastIndex(path, "."); i >= 0 {
		return path[:i]
	}
	return ""
}

// isPointerLike reports whether values of t are references to memory
// elsewhere: what they point to is another object's line.
func isPointerLike(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	}
	return false
}
