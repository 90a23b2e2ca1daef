package probe

import (
	"fmt"
	"unsafe"

	"github.com/mglayout/mglayout/layout/access"
)

// opKind is one memory operation of a worker, on a 4- or 8-byte word.
type opKind uint8

const (
	opLoad32 opKind = iota
	opLoad64
	opStore32
	opStore64
	opAdd32
	opAdd64
	opCAS32
	opCAS64
	numOps
)

var opNames = [numOps]string{"load32", "load64", "store32", "store64", "add32", "add64", "cas32", "cas64"}

func (k opKind) String() string { return opNames[k] }

// op is one access of one iteration.
type op struct {
	kind opKind
	addr unsafe.Pointer
}

// program is one iteration of a path: plain operations, then at most one
// seqlock section. A read section loads the counter, retries while it is
// odd, runs its loads, and retries if the counter changed; a write section
// increments the counter, runs its stores, and increments it again.
type program struct {
	path   *access.Path
	before []op
	seq    unsafe.Pointer // the counter of the section; nil if none
	write  bool           // a write section
	inside []op
	after  []op // accesses after a read section that are not loads
}

// mapper turns a byte range of an object into addresses: the identity
// on a placed object, or the packing of an emulation.
type mapper interface {
	// addr returns the address of byte off of object obj.
	addr(obj int, off int64) unsafe.Pointer
}

// touch is an access resolved on one object.
type touch struct {
	obj int
	access.Touch
}

// compile turns a path's accesses, resolved on their objects, into a
// program over the mapper's addresses.
func compile(p *access.Path, touches []touch, m mapper) (*program, error) {
	prog := &program{path: p}
	for _, t := range touches {
		switch t.Op {
		case access.SeqRead, access.SeqWrite:
			if prog.seq != nil {
				return nil, fmt.Errorf("path %s: a second seqlock section (%s) is not supported", p.Name, t.Member)
			}
			if t.End-t.Offset < 4 || t.Offset%4 != 0 {
				return nil, fmt.Errorf("path %s: the sequence counter %s is not an aligned word", p.Name, t.Member)
			}
			prog.seq = m.addr(t.obj, t.Offset)
			prog.write = t.Op == access.SeqWrite
			continue
		}
		ops := words(t, m)
		switch {
		case prog.seq == nil:
			prog.before = append(prog.before, ops...)
		case prog.write || t.Op == access.Read:
			// A write section holds everything after its counter; a
			// read section, the loads.
			prog.inside = append(prog.inside, ops...)
		default:
			prog.after = append(prog.after, ops...)
		}
	}
	return prog, nil
}

// wordsOf expands an access to the aligned words covering its bytes:
// 8-byte words where the bytes fill them, 4-byte words elsewhere
// (sync/atomic has nothing narrower; an aligned 4-byte word never crosses
// a line, so the lines touched are the member's).
func wordsOf(t touch) []wordSpan {
	var out []wordSpan
	for off := t.Offset &^ 3; off < t.End; {
		width := int64(4)
		if off%8 == 0 && off+8 <= t.End && off >= t.Offset {
			width = 8
		}
		out = append(out, wordSpan{off, off + width})
		off += width
	}
	return out
}

// words turns an access into operations on the mapper's addresses.
func words(t touch, m mapper) []op {
	base := map[access.Op]opKind{access.Read: opLoad32, access.Write: opStore32, access.Add: opAdd32, access.CAS: opCAS32}[t.Op]
	var ops []op
	for _, w := range wordsOf(t) {
		k := base
		if w.end-w.off == 8 {
			k++ // the 64-bit form follows the 32-bit one
		}
		ops = append(ops, op{k, m.addr(t.obj, w.off)})
	}
	return ops
}
