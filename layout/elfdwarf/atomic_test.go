package elfdwarf

import (
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
)

// atomicC holds _Atomic members, which pahole cannot read (it stops at
// DW_TAG_atomic_type), and the facts gcc knows about them: each struct's
// alignment and each member's offset, in the order of atomicFacts.
const atomicC = `#include <stddef.h>
struct P8 { char a[8]; };
struct atomics {
	char c;
	_Atomic struct P8 x;
	char d;
	long long ll;
	_Atomic long long al;
	char e;
	_Atomic char ac;
	_Atomic int ai;
};
struct atomics v;
const unsigned long long mgl_facts[] = {
	_Alignof(struct atomics),
	offsetof(struct atomics, x), offsetof(struct atomics, d), offsetof(struct atomics, ll),
	offsetof(struct atomics, al), offsetof(struct atomics, e), offsetof(struct atomics, ac),
	offsetof(struct atomics, ai),
};
`

var atomicFacts = []string{"", "x", "d", "ll", "al", "e", "ac", "ai"}

// TestAtomic checks _Atomic members against gcc: an _Atomic object of a
// power-of-two size is aligned to its size, whatever its type's alignment
// (a struct of chars; a long long on 386).
func TestAtomic(t *testing.T) {
	requireGCC(t)
	for _, flags := range [][]string{{"-g"}, {"-g", "-m32"}} {
		if !gccCan(flags...) {
			t.Logf("gcc %v does not compile here; skipped", flags)
			continue
		}
		dir := t.TempDir()
		src := filepath.Join(dir, "atomic.c")
		if err := os.WriteFile(src, []byte(atomicC), 0o644); err != nil {
			t.Fatal(err)
		}
		obj := gcc(t, dir, src, "atomic.o", append(flags, "-Wno-psabi")...)
		f, err := elf.Open(obj)
		if err != nil {
			t.Fatal(err)
		}
		data := symbolData(t, f, "mgl_facts")
		f.Close()
		structs, _, err := Load(obj, Options{Types: []string{"atomics"}})
		if err != nil {
			t.Fatal(err)
		}
		s := byName(structs)["atomics"]
		if s == nil {
			t.Fatalf("%v: no struct atomics", flags)
		}
		for i, member := range atomicFacts {
			want := int64(binary.LittleEndian.Uint64(data[8*i:]))
			got := s.Align
			if member != "" {
				m := s.Field(member)
				if m == nil {
					t.Fatalf("%v: no member %s", flags, member)
				}
				got = m.Offset
				if m.Offset%m.Align != 0 {
					t.Errorf("%v: %s at %d is not %d-aligned", flags, member, m.Offset, m.Align)
				}
			}
			if got != want {
				t.Errorf("%v: %s: gcc %d, loader %d", flags, "atomics "+member, want, got)
			}
		}
	}
}
