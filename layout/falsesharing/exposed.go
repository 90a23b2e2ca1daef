package falsesharing

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/falsesharing/concurrency"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
)

// checkExposed finds the hot members beside cache-line padding whose
// line also holds another object's members. The padding declares that
// its author wanted the member on a line of its own; where the object can
// start decides whether it gets one (FS3), and a pad sized for a smaller
// line never gives it one (FS4).
func (c *checker) checkExposed(o object, s *layout.Struct, arch string, cs *sharing.Case, oa *sharing.ObjectAnalysis) {
	members := c.exposable(o, s)
	if len(members) == 0 {
		return
	}
	// Elements of an array or slice have their own kind beside them.
	// Other objects have unknown neighbours; padding at an edge of the
	// object declares that they are to be kept off.
	element := c.elementTypes()[o.tn]
	top := s.Members(-1)
	leading, trailing := linePadField(&s.Fields[top[0]]), linePadField(&s.Fields[top[len(top)-1]])
	head := leadingRun(s)
	stride, _ := placement.Stride(s)
	for _, m := range members {
		// Before a head run, the previous object of the size class is
		// taken to be of the type: its members there are the ones the
		// run was padded against.
		headSteady := !element && stride > 0 && slices.Contains(head, m) && c.steadyHead(o, m)
		for _, l := range cs.Lines {
			if !l.Exposed() || !slices.ContainsFunc(l.Members, func(leaf string) bool { return concurrency.Within(leaf, m) }) {
				continue
			}
			var before, after bool
			var previous []string // members of the object before
			if element {
				before = !onlyPadding(s, s.Size-l.ExposedBefore, s.Size)
				after = !onlyPadding(s, 0, l.ExposedAfter)
			} else {
				if headSteady && l.ExposedBefore > 0 {
					previous = c.steadilyUsed(o, s, stride-l.ExposedBefore, stride)
				}
				before = (leading || len(previous) > 0) && l.ExposedBefore > 0
				after = trailing && l.ExposedAfter > 0
			}
			if !before && !after {
				continue
			}
			tier := Declared
			if element && s.Size%cs.Line == 0 {
				// Padded to whole lines, as paddedToLine tables are:
				// whether the array starts mid-line is a guess.
				tier = Likely
			}
			f := finding{rule: PhasePadding, key: "exposed|" + m, a: m, b: m, hot: m, tier: tier, exposed: true}
			if len(previous) > 0 && !after {
				f.previous = &previousObject{stride, previous}
			}
			c.add(o.tn, s, arch, cs, oa, f, "", evidence{})
			break
		}
	}
}

// exposable returns the members of a struct type that sit beside
// cache-line padding at its top level, with no other pad between, and
// that the package writes concurrently (atomics, locks).
func (c *checker) exposable(o object, s *layout.Struct) []string {
	tn, ok := o.tn.(*types.TypeName)
	if !ok || o.objects != nil || o.slice || o.declared || tn.Type() != o.typ {
		return nil
	}
	// The members between two pads, or between a pad and an edge of
	// the object, form a run that the pad beside it is for.
	var out, run []string
	padded := false
	flush := func(padAfter bool) {
		if padded || padAfter {
			out = append(out, run...)
		}
		run = nil
	}
	for _, fi := range s.Members(-1) {
		f := &s.Fields[fi]
		if linePadField(f) {
			flush(true)
			padded = true
			continue
		}
		v := c.hot.memberVars(o.typ)[f.Path]
		if !isPadding(f) && (slices.Contains(c.hot.hotMembers(o.tn), f.Path) || v != nil && concurrentElem(v.Type())) {
			run = append(run, f.Path)
		}
	}
	flush(false)
	return out
}

// leadingRun returns the members before a struct's first cache-line
// pad when that pad ends on a multiple of minLinePad, as one ending a
// line does: the pad gives them the object's first line, which is
// theirs alone only if the object starts on one, so the previous object
// is a neighbour they were padded against (uber-go/ratelimit's state pointer before its [56]byte pad,
// to which a later commit added the pad before).
func leadingRun(s *layout.Struct) []string {
	var run []string
	for _, fi := range s.Members(-1) {
		f := &s.Fields[fi]
		if linePadField(f) {
			if f.End()%minLinePad != 0 {
				return nil
			}
			return run
		}
		run = append(run, f.Path)
	}
	return nil
}

// steadyHead reports whether a member of the head run is an atomic
// the steady state writes: the previous object matters to the members
// its padding was for, not to a lock taken now and then.
func (c *checker) steadyHead(o object, member string) bool {
	return c.atomicMember(o.tn, member) && c.writtenSteadily(o, member, member)
}

// atomicMember reports whether a member of a struct type is written
// atomically: of an atomic type, or through sync/atomic.
func (c *checker) atomicMember(tn types.Object, member string) bool {
	v := c.hot.memberVars(tn.Type())[member]
	return slices.Contains(c.hot.hotMembers(tn), member) || v != nil && concurrentElem(v.Type()) && !isMutex(v.Type())
}

// steadilyUsed returns the members of a layout in the bytes [off, end)
// that the steady state reads or writes; without a model, all of them.
func (c *checker) steadilyUsed(o object, s *layout.Struct, off, end int64) []string {
	m := c.model()
	var used []string
	for _, i := range s.Members(-1) {
		f := &s.Fields[i]
		if f.Offset >= end || f.End() <= off || isPadding(f) {
			continue
		}
		if m == nil || slices.ContainsFunc(m.Touches(o.owner(f.Path), f.Path, o.slice), func(t concurrency.Touch) bool {
			return t.Op.Steady() && !t.ExceptionalOnly
		}) {
			used = append(used, f.Path)
		}
	}
	return used
}

// linePadField reports whether a member of a layout is cache-line
// padding (linePad, on the layout).
func linePadField(f *layout.Field) bool {
	return isPadding(f) && f.Size >= minLinePad
}

// onlyPadding reports whether the bytes [off, end) of a layout hold
// nothing but padding members and gaps.
func onlyPadding(s *layout.Struct, off, end int64) bool {
	if off >= end {
		return true
	}
	if off < 0 {
		return false
	}
	for _, i := range s.Members(-1) {
		f := &s.Fields[i]
		if f.Offset < end && off < f.End() && !isPadding(f) {
			return false
		}
	}
	return true
}

// classifyExposed decides between FS4, for padding that keeps the
// neighbours off the member's line at every phase of a smaller line
// size checked but not at this one, or at no phase at all, and FS3.
func (c *checker) classifyExposed(f *finding) *Rule {
	line, _ := f.maxLine()
	if c.cleanBelow(f, line) || !f.somePhases() {
		return ShortPadding
	}
	return PhasePadding
}

// exposedMessage words an exposed member's finding.
func (f *finding) exposedMessage(line int64) string {
	if p := f.previous; p != nil {
		return fmt.Sprintf("the padding after %s leaves it on a line with the object before: %s of the allocator's %d-byte size class starts mid-line (%s), and the object before it, another %s there, has %s on %s's line; pad before %s too",
			f.hot, article(f.tn.Name()), p.stride, f.whereText(), f.tn.Name(), textfmt.JoinWords(p.members), f.hot, f.hot)
	}
	if f.rule == ShortPadding {
		return fmt.Sprintf("the padding beside %s is sized for a smaller line: the neighbouring object or element shares %s's line (%s); pad for %d bytes or use golang.org/x/sys/cpu.CacheLinePad",
			f.hot, f.hot, f.whereText(), line)
	}
	return fmt.Sprintf("the padding beside %s keeps other memory off its line only at some of the offsets where %s can start: the neighbouring object or element shares %s's line (%s); pad so that %s has a whole line to itself wherever the %s starts",
		f.hot, article(f.tn.Name()), f.hot, f.whereText(), f.hot, f.tn.Name())
}

// article puts "a" or "an" before a name, by its first letter.
func article(name string) string {
	if name != "" && strings.ContainsRune("aeiouAEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// elementTypes returns the struct types of the package that are the
// elements of an array or slice type it uses, or that a loop allocates
// one by one: their neighbours are objects of their own type.
func (c *checker) elementTypes() map[types.Object]bool {
	if c.elements != nil {
		return c.elements
	}
	c.elements = maps.Clone(c.valueElements())
	for tn := range c.allocatedInLoops() {
		c.elements[tn] = true
	}
	return c.elements
}

// valueElements returns the package's struct types that arrays or
// slices hold by value: they start at any multiple of their alignment.
func (c *checker) valueElements() map[types.Object]bool { return c.holders().Elements }
