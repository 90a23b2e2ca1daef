package probe

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
)

// workload is a layout whose members cover the shapes a path can name:
// a 4-byte sequence counter, 8-byte and 4-byte scalars, a 2-byte one, an
// aggregate of mixed members, an array of 8-byte elements and a 12-byte
// array of 4-byte elements.
func workload(t testing.TB) *layout.Struct {
	return synth(t, "workload", 64, 128, []member{
		scalar("seq", 0, 4),
		scalar("a", 8, 8),
		scalar("b", 16, 8),
		scalar("c", 24, 8),
		scalar("d", 32, 4),
		scalar("e", 36, 4),
		{name: "agg", off: 40, size: 16, kind: layout.KindStruct, parent: -1, typeString: "struct agg"},
		{name: "x", off: 40, size: 8, kind: layout.KindScalar, parent: 6},
		{name: "y", off: 48, size: 4, kind: layout.KindScalar, parent: 6},
		{name: "z", off: 52, size: 4, kind: layout.KindScalar, parent: 6},
		{name: "h", off: 62, size: 2, kind: layout.KindScalar, parent: -1},
		{name: "arr", off: 64, size: 32, kind: layout.KindArray, len: 4, parent: -1, typeString: "u64[4]"},
		{name: "tri", off: 96, size: 12, kind: layout.KindArray, len: 3, parent: -1, typeString: "u32[3]"},
	})
}

// opsPerIteration is what one iteration of each workload path must do,
// one entry per kind of operation.
var opsPerIteration = []struct {
	spec string
	ops  map[opKind]uint64
}{
	{"seqread seqread=seq read=a,b,c", map[opKind]uint64{opLoad32: 2, opLoad64: 3}},
	{"seqwrite seqwrite=seq write=a,b,c", map[opKind]uint64{opAdd32: 2, opStore64: 3}},
	{"add add=a", map[opKind]uint64{opAdd64: 1}},
	{"add4 add=d", map[opKind]uint64{opAdd32: 1}},
	{"cas cas=b", map[opKind]uint64{opCAS64: 1}},
	{"cas4 cas=e", map[opKind]uint64{opCAS32: 1}},
	{"read4 read=d,e", map[opKind]uint64{opLoad32: 2}},
	{"write4 write=d,e", map[opKind]uint64{opStore32: 2}},
	{"aggregate write=agg", map[opKind]uint64{opStore64: 2}},
	{"aggmembers read=agg.x,agg.y,agg.z", map[opKind]uint64{opLoad64: 1, opLoad32: 2}},
	{"elem write=arr[2]", map[opKind]uint64{opStore64: 1}},
	{"array read=arr", map[opKind]uint64{opLoad64: 4}},
	{"short read=h", map[opKind]uint64{opLoad32: 1}},
	{"tri read=tri", map[opKind]uint64{opLoad64: 1, opLoad32: 1}},
	{"tick read=c seqwrite=seq write=a,agg", map[opKind]uint64{opLoad64: 1, opAdd32: 2, opStore64: 3}},
	{"readthenadd seqread=seq read=a,d add=c", map[opKind]uint64{opLoad32: 3, opLoad64: 1, opAdd64: 1}},
	{"mixed read=a write=b add=c cas=d", map[opKind]uint64{opLoad64: 1, opStore64: 1, opAdd64: 1, opCAS32: 1}},
}

// compileOn compiles a path of the workload on natively placed memory.
func compileOn(t testing.TB, s *layout.Struct, spec string) (*program, *native) {
	t.Helper()
	path := mustParse(t, spec)[0]
	ts, err := access.Resolve(path, s)
	if err != nil {
		t.Fatal(err)
	}
	var touches []touch
	for _, tc := range ts {
		touches = append(touches, touch{0, tc})
	}
	n, err := placeNative([]*layout.Struct{s}, []int64{0})
	if err != nil {
		t.Fatal(err)
	}
	prog, err := compile(path, touches, n)
	if err != nil {
		n.close()
		t.Fatal(err)
	}
	return prog, n
}

// TestProgramEffects runs paths a known number of times and checks their
// effect on memory: adds and CASes count, a write section leaves the
// counter even and advanced by two per iteration, stores store.
func TestProgramEffects(t *testing.T) {
	s := workload(t)
	const n = 1000
	u64 := func(m *native, off int64) uint64 { return atomic.LoadUint64((*uint64)(m.addr(0, off))) }
	u32 := func(m *native, off int64) uint32 { return atomic.LoadUint32((*uint32)(m.addr(0, off))) }
	for _, c := range []struct {
		spec  string
		check func(m *native) []uint64 // got, want pairs
	}{
		{"add add=a", func(m *native) []uint64 { return []uint64{u64(m, 8), n} }},
		{"add4 add=d", func(m *native) []uint64 { return []uint64{uint64(u32(m, 32)), n} }},
		{"cas cas=b", func(m *native) []uint64 { return []uint64{u64(m, 16), n} }},
		{"cas4 cas=e", func(m *native) []uint64 { return []uint64{uint64(u32(m, 36)), n} }},
		{"seqwrite seqwrite=seq write=a,b,c", func(m *native) []uint64 {
			return []uint64{uint64(u32(m, 0)), 2 * n, u64(m, 8), n - 1, u64(m, 24), n - 1}
		}},
		{"elem write=arr[2]", func(m *native) []uint64 { return []uint64{u64(m, 64+16), n - 1, u64(m, 64+8), 0, u64(m, 64+24), 0} }},
		{"aggregate write=agg", func(m *native) []uint64 { return []uint64{u64(m, 40), n - 1, u64(m, 48), n - 1, u64(m, 32), 0} }},
		{"readonly seqread=seq read=a,b,c", func(m *native) []uint64 { return []uint64{uint64(u32(m, 0)), 0, u64(m, 8), 0} }},
	} {
		prog, m := compileOn(t, s, c.spec)
		for v := range uint64(n) {
			if r := prog.iterate(v); r != 0 {
				t.Errorf("%s: %d retries alone", c.spec, r)
			}
		}
		got := c.check(m)
		for i := 0; i < len(got); i += 2 {
			if got[i] != got[i+1] {
				t.Errorf("%s: after %d iterations, check %d reads %d, want %d", c.spec, n, i/2, got[i], got[i+1])
			}
		}
		m.close()
	}
}

// TestProgramShape checks how paths are split around their seqlock
// section.
func TestProgramShape(t *testing.T) {
	s := workload(t)
	for _, c := range []struct {
		spec                  string
		before, inside, after int
		seq, write            bool
	}{
		{"r seqread=seq read=a,b,c", 0, 3, 0, true, false},
		{"w read=c seqwrite=seq write=a,agg", 1, 3, 0, true, true},
		{"ra read=d seqread=seq read=a add=c", 1, 1, 1, true, false},
		{"plain read=a write=b", 2, 0, 0, false, false},
	} {
		prog, m := compileOn(t, s, c.spec)
		if len(prog.before) != c.before || len(prog.inside) != c.inside || len(prog.after) != c.after ||
			(prog.seq != nil) != c.seq || prog.write != c.write {
			t.Errorf("%s: before %d, inside %d, after %d, seq %v, write %v; want %d, %d, %d, %v, %v",
				c.spec, len(prog.before), len(prog.inside), len(prog.after), prog.seq != nil, prog.write,
				c.before, c.inside, c.after, c.seq, c.write)
		}
		m.close()
	}
}

// TestCompileRejects: two seqlock sections, or a counter that is not an
// aligned word.
func TestCompileRejects(t *testing.T) {
	s := synth(t, "odd", 8, 32, []member{scalar("seq", 0, 4), scalar("s2", 4, 4), scalar("c", 8, 2), scalar("a", 16, 8)})
	n, err := placeNative([]*layout.Struct{s}, []int64{0})
	if err != nil {
		t.Fatal(err)
	}
	defer n.close()
	for _, spec := range []string{"two seqread=seq read=a seqwrite=s2", "narrow seqread=c read=a"} {
		path := mustParse(t, spec)[0]
		ts, err := access.Resolve(path, s)
		if err != nil {
			t.Fatal(err)
		}
		var touches []touch
		for _, tc := range ts {
			touches = append(touches, touch{0, tc})
		}
		if _, err := compile(path, touches, n); err == nil {
			t.Errorf("%s: compiled", spec)
		}
	}
}

// TestLoopStops: a worker's loop returns soon after the flag is set, both
// unthrottled and throttled, and its iterations are the ones it ran.
func TestLoopStops(t *testing.T) {
	s := workload(t)
	for _, rate := range []float64{access.Hot, 2000} {
		prog, m := compileOn(t, s, "add add=a")
		f := new(flag)
		done := make(chan uint64)
		go func() {
			it, _ := prog.loop(&f.stop, rate)
			done <- it
		}()
		time.Sleep(20 * time.Millisecond)
		f.stop.Store(true)
		select {
		case it := <-done:
			if got := atomic.LoadUint64((*uint64)(m.addr(0, 8))); got != it || it == 0 {
				t.Errorf("rate %v: the loop reports %d iterations but added %d", rate, it, got)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("rate %v: the loop did not stop", rate)
		}
		m.close()
	}
}
