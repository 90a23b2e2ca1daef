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
// phase, the words the running paths access into a host line of its own;
// host lines are spacing bytes apart, the host's interference distance,
// so that no two of them interfere.
//
// Within a target line, words accessed by the same paths with the same
// operations behave alike for coherence, so they share one slot of the
// host line: every access still happens, at the slot's address. Then two
// paths touch a common slot exactly when they touched a common word, and
// a common host line exactly when they touched a common target line, and
// each path touches as many lines as before. A tick that rewrites a whole
// 128-byte line thus needs one slot for the words no reader reads, not
// 128 bytes.
type emulated struct {
	arena *arena
	slots []map[int64]int64 // per object: word offset → arena offset
}

// wordAccess is a word of an object and who accesses it, as "path:op".
type wordAccess struct {
	wordSpan
	who string
}

// emulation describes the target.
type emulation struct {
	target, host, spacing int64
}

// placeEmulated packs the words of every object. It refuses when one
// target line needs more slots than a host line holds, naming the line
// and its members, since the emulation could not keep that line's
// sharing.
func placeEmulated(objects []*layout.Struct, phases []int64, words [][]wordAccess, e emulation) (*emulated, error) {
	type lineKey struct {
		obj  int
		line int64
	}
	// Per target line, per word: who accesses it.
	who := map[lineKey]map[wordSpan][]string{}
	var keys []lineKey
	for obj, ws := range words {
		for _, w := range ws {
			k := lineKey{obj, (phases[obj] + w.off) / e.target}
			if who[k] == nil {
				who[k] = map[wordSpan][]string{}
				keys = append(keys, k)
			}
			if !slices.Contains(who[k][w.wordSpan], w.who) {
				who[k][w.wordSpan] = append(who[k][w.wordSpan], w.who)
			}
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
	em := &emulated{arena: a, slots: make([]map[int64]int64, len(objects))}
	for i := range em.slots {
		em.slots[i] = map[int64]int64{}
	}
	for h, k := range keys {
		// Words that overlap (a 4-byte read inside an 8-byte write) are
		// one word, accessed by all of their accessors; then one 8-byte
		// slot per signature, in the order of the words.
		spans := mergeOverlapping(who[k])
		slot := map[string]int64{}
		hostLine := int64(h) * e.spacing
		for _, w := range spans {
			at, ok := slot[w.sig]
			if !ok {
				at = hostLine + 8*int64(len(slot))
				slot[w.sig] = at
			}
			for off := w.off; off < w.end; off += 4 {
				em.slots[k.obj][off] = at + off - w.off
			}
		}
		if used := 8 * int64(len(slot)); used > e.host {
			a.close()
			return nil, fmt.Errorf("cannot emulate %d-byte lines on %d-byte ones: line %d of %s is accessed in %d different ways (%s), more than the %d slots of a host line",
				e.target, e.host, k.line, objects[k.obj].Name, len(slot), strings.Join(membersIn(objects[k.obj], spanList(spans)), ", "), e.host/8)
		}
	}
	return em, nil
}

func (em *emulated) addr(obj int, off int64) unsafe.Pointer {
	at, ok := em.slots[obj][off]
	if !ok {
		panic(fmt.Sprintf("probe: word %d of object %d was not packed", off, obj))
	}
	return em.arena.at(at)
}

func (em *emulated) close() error { return em.arena.close() }

// wordSpan is an accessed word of an object.
type wordSpan struct{ off, end int64 }

// signed is a word with the sorted list of its accessors, joined.
type signed struct {
	wordSpan
	sig string
}

// mergeOverlapping merges words whose bytes overlap, with the union of
// their accessors, and returns them in offset order. Words are aligned
// 4- or 8-byte words, so a merged word is at most 8 bytes.
func mergeOverlapping(who map[wordSpan][]string) []signed {
	var spans []wordSpan
	for w := range who {
		spans = append(spans, w)
	}
	slices.SortFunc(spans, func(x, y wordSpan) int {
		if x.off != y.off {
			return int(x.off - y.off)
		}
		return int(x.end - y.end)
	})
	var merged []wordSpan
	var accessors [][]string
	for _, w := range spans {
		if n := len(merged); n > 0 && w.off < merged[n-1].end {
			merged[n-1].end = max(merged[n-1].end, w.end)
			accessors[n-1] = append(accessors[n-1], who[w]...)
			continue
		}
		merged = append(merged, w)
		accessors = append(accessors, slices.Clone(who[w]))
	}
	out := make([]signed, len(merged))
	for i, w := range merged {
		slices.Sort(accessors[i])
		out[i] = signed{w, strings.Join(slices.Compact(accessors[i]), ",")}
	}
	return out
}

func spanList(s []signed) []wordSpan {
	out := make([]wordSpan, len(s))
	for i, w := range s {
		out[i] = w.wordSpan
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
