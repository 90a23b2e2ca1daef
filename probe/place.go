package probe

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/mglayout/mglayout/layout"
)

// native places each object at its phase from a line boundary, each in a
// region of pages of its own, so that objects share no line and nothing
// else touches theirs.
type native struct {
	arena  *arena
	starts []int64 // arena offset of each object
}

func placeNative(objects []*layout.Struct, phases []int64) (*native, error) {
	var starts []int64
	var size int64
	for i, s := range objects {
		starts = append(starts, size+phases[i])
		size += roundUp(phases[i]+s.Size+1, pageSize) + pageSize
	}
	a, err := newArena(int(size))
	if err != nil {
		return nil, err
	}
	return &native{arena: a, starts: starts}, nil
}

func (n *native) addr(obj int, off int64) unsafe.Pointer { return n.arena.at(n.starts[obj] + off) }

func (n *native) close() error { return n.arena.close() }

func roundUp(n, a int64) int64 { return (n + a - 1) / a * a }

// emulated packs, for each line of the target line size at the object's
// phase, the bytes the paths access into a host line of its own; host
// lines are spacing bytes apart, the host's interference distance, so
// that no two of them interfere. Accesses that shared a target line
// share a host line, and those that did not, do not.
type emulated struct {
	arena *arena
	// spans per object: accessed bytes of the object and where they went.
	spans [][]packedSpan
}

type packedSpan struct {
	off, end int64 // bytes of the object
	at       int64 // arena offset of off
}

// emulation describes the target.
type emulation struct {
	target, host, spacing int64
}

// placeEmulated packs the accessed word spans of every object. It refuses
// when one target line's accessed bytes do not fit a host line, naming
// the line and the members, since the emulation could then not keep that
// line's sharing.
func placeEmulated(objects []*layout.Struct, phases []int64, words [][]wordSpan, e emulation) (*emulated, error) {
	type lineKey struct {
		obj  int
		line int64
	}
	byLine := map[lineKey][]wordSpan{}
	var keys []lineKey
	for obj, ws := range words {
		for _, w := range ws {
			k := lineKey{obj, (phases[obj] + w.off) / e.target}
			if _, ok := byLine[k]; !ok {
				keys = append(keys, k)
			}
			byLine[k] = append(byLine[k], w)
		}
	}
	slices.SortFunc(keys, func(a, b lineKey) int {
		if a.obj != b.obj {
			return a.obj - b.obj
		}
		return int(a.line - b.line)
	})
	a, err := newArena(int(int64(len(keys)+1)*e.spacing + pageSize))
	if err != nil {
		return nil, err
	}
	// Host lines start on a spacing boundary of the arena, which mmap
	// aligns to a page.
	em := &emulated{arena: a, spans: make([][]packedSpan, len(objects))}
	for h, k := range keys {
		merged := mergeSpans(byLine[k])
		hostLine := int64(h) * e.spacing
		var used int64
		for _, m := range merged {
			// Keep each span's alignment modulo 8 so 8-byte atomics stay
			// aligned.
			slot := roundUp(used, 8) + m.off%8
			if slot < used {
				slot += 8
			}
			em.spans[k.obj] = append(em.spans[k.obj], packedSpan{m.off, m.end, hostLine + slot})
			used = slot + m.end - m.off
		}
		if used > e.host {
			a.close()
			return nil, fmt.Errorf("cannot emulate %d-byte lines on %d-byte ones: line %d of %s holds %d accessed bytes (%s), more than a host line",
				e.target, e.host, k.line, objects[k.obj].Name, used, strings.Join(membersIn(objects[k.obj], merged), ", "))
		}
	}
	return em, nil
}

func (em *emulated) addr(obj int, off int64) unsafe.Pointer {
	for _, s := range em.spans[obj] {
		if off >= s.off && off < s.end {
			return em.arena.at(s.at + off - s.off)
		}
	}
	panic(fmt.Sprintf("probe: byte %d of object %d was not packed", off, obj))
}

func (em *emulated) close() error { return em.arena.close() }

// wordSpan is an accessed word of an object.
type wordSpan struct{ off, end int64 }

// mergeSpans sorts spans and merges those that overlap or touch.
func mergeSpans(ws []wordSpan) []wordSpan {
	ws = slices.Clone(ws)
	slices.SortFunc(ws, func(a, b wordSpan) int { return int(a.off - b.off) })
	var out []wordSpan
	for _, w := range ws {
		if n := len(out); n > 0 && w.off <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, w.end)
			continue
		}
		out = append(out, w)
	}
	return out
}

// membersIn names the leaf members with bytes in the spans.
func membersIn(s *layout.Struct, spans []wordSpan) []string {
	var out []string
	for _, f := range s.Fields {
		if f.Aggregate() {
			continue
		}
		for _, sp := range spans {
			if f.Offset < sp.end && sp.off < f.End() && !slices.Contains(out, f.Path) {
				out = append(out, f.Path)
			}
		}
	}
	return out
}
