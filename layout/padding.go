package layout

import (
	"slices"
	"strings"
)

// Padding reports whether a member is deliberate padding: a blank or
// pad-named member (PadName) of some bytes, or an array of words of any
// length (a pad computed as [64 - unsafe.Sizeof(x)]byte may come to
// nothing), or an x/sys/cpu CacheLinePad. A blank zero-size member of
// another type (go.uber.org/atomic's nocmp, a [0]func()) only changes
// what the compiler allows. Everything in mglayout that asks whether a
// member is padding (suggest's barriers, the analyzer's rules) asks this.
func (f *Field) Padding() bool {
	if strings.Contains(f.Type, "CacheLinePad") {
		return true
	}
	return (f.Name == "_" || PadName(f.Name)) && (f.Size > 0 || wordArray(f.Type))
}

// PadName reports whether a name names padding: pad, _pad1, __pad0,
// padding, prepadding, postPad.
func PadName(name string) bool {
	n := strings.ToLower(strings.TrimLeft(name, "_"))
	n = strings.TrimRight(n, "0123456789")
	return strings.HasPrefix(n, "pad") || strings.HasSuffix(n, "pad") || strings.HasSuffix(n, "padding")
}

// wordArray reports whether a type is spelled as an array of bytes or
// words: [0]byte, [n]uint64.
func wordArray(typ string) bool {
	_, elem, ok := strings.Cut(typ, "]")
	return ok && strings.HasPrefix(typ, "[") && slices.Contains([]string{"byte", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "uint", "int", "uintptr"}, elem)
}
