package elfdwarf

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The seeds are layout_small.c (testdata/c at the repository root)
// compiled in each form the loader reads:
//
//	gcc -g -gdwarf-4 -c layout_small.c -o small-dwarf4.o
//	gcc -g -gdwarf-5 -c layout_small.c -o small-dwarf5.o
//	gcc -g -gdwarf-5 -gz=zlib -c layout_small.c -o small-zlib.o
//	gcc -g -gdwarf-4 -gz=zlib-gnu -c layout_small.c -o small-zlib-gnu.o
//	gcc -g -m32 -gdwarf-5 -c layout_small.c -o small-m32.o
//	gcc -g -gdwarf-2 -gstrict-dwarf -c layout_small.c -o small-dwarf2.o
func seeds(t testing.TB) map[string][]byte {
	t.Helper()
	names, _ := filepath.Glob("testdata/small-*.o")
	if len(names) == 0 {
		t.Fatal("no seeds in testdata")
	}
	out := map[string][]byte{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = data
	}
	return out
}

// checkLoad loads data from memory with panics let through, checking
// that an error is one line naming the input.
func checkLoad(t *testing.T, data []byte) {
	t.Helper()
	const name = "input.o"
	structs, _, err := loadBytes(name, data, Options{})
	if err != nil {
		if msg := err.Error(); !strings.HasPrefix(msg, name+": ") || strings.Contains(msg, "\n") {
			t.Fatalf("error is not one line naming the file: %q", msg)
		}
		return
	}
	for _, s := range structs {
		if err := s.Validate(); err != nil {
			t.Fatalf("invalid layout: %v", err)
		}
	}
}

func noCatch(t testing.TB) {
	catchPanics = false
	t.Cleanup(func() { catchPanics = true })
}

// TestSeeds checks that the seeds load: what they hold is what the fuzzer
// mutates.
func TestSeeds(t *testing.T) {
	for name := range seeds(t) {
		structs, notes, err := Load(name, Options{})
		if err != nil || len(notes) > 0 || len(structs) != 3 {
			t.Errorf("%s: %d structs, notes %q, error %v; want small, atomic_like and tight", name, len(structs), notes, err)
		}
	}
}

// TestCorrupt truncates each seed at many lengths and flips bytes all
// over it: the loader must never panic, and its errors must name the
// file. (go test -fuzz FuzzLoad explores further.)
func TestCorrupt(t *testing.T) {
	noCatch(t)
	for name, data := range seeds(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			for n := 0; n < len(data); n += 13 {
				checkLoad(t, data[:n])
			}
			for i := 0; i < len(data); i += 7 {
				for _, x := range []byte{0xff, 0x80, 0x01} {
					c := append([]byte(nil), data...)
					c[i] ^= x
					checkLoad(t, c)
				}
			}
		})
	}
}

// FuzzLoad feeds the loader mutated ELF objects: go test -fuzz FuzzLoad
// ./layout/elfdwarf. It never panics; an error is one line naming the
// file.
func FuzzLoad(f *testing.F) {
	for _, data := range seeds(f) {
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		noCatch(t)
		checkLoad(t, data)
	})
}

// TestErrors checks the errors a user meets: each names the file and
// says what to do.
func TestErrors(t *testing.T) {
	requireGCC(t)
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte("not an object\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nodebug := gcc(t, dir, featuresC, "nodebug.o")
	obj := gcc(t, dir, featuresC, "features.o", "-g")
	for _, tc := range []struct {
		path string
		opts Options
		want string
	}{
		{filepath.Join(dir, "missing.o"), Options{}, "missing.o: no such file"},
		{dir, Options{}, "a directory, not an ELF file"},
		{text, Options{}, "notes.txt: not an ELF file"},
		{nodebug, Options{}, "nodebug.o: no DWARF debug info (build it with -g"},
		{obj, Options{Types: []string{"nosuch"}}, "features.o: no struct nosuch in its DWARF"},
		{obj, Options{Types: []string{"either"}}, "features.o: either is a union"},
		{obj, Options{Arch: "arm64"}, "features.o: an ELF file for amd64, not arm64"},
	} {
		_, _, err := Load(tc.path, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.path) {
			t.Errorf("Load(%s, %+v): %v, want an error naming the file with %q", tc.path, tc.opts, err, tc.want)
		}
	}
}

// TestLineTableSane: the line tables of the seeds pass; a DWARF 5 header
// whose file count its length cannot hold does not, so that the loader
// never hands it to debug/dwarf's LineReader, which would allocate and
// read as many entries as it says.
func TestLineTableSane(t *testing.T) {
	for name, data := range seeds(t) {
		f, err := read(name, bytes.NewReader(data), data, int64(len(data)), "")
		if err != nil {
			t.Fatal(err)
		}
		sec := lineSection(f.elf)
		if sec == nil || !lineTableSane(sec, 0, f.elf.ByteOrder) {
			t.Errorf("%s: the line table is not sane", name)
		}
		cu, err := f.dw.Reader().Next()
		if err != nil || cu == nil || !f.lineTableOK(&unit{entry: cu}) {
			t.Errorf("%s: the loader does not read its unit's line table", name)
		}
		f.close()
	}
	// unit_length, version 5, address and selector sizes, header_length,
	// five fixed bytes, opcode_base 1; one directory format (path,
	// string) and one directory "d"; one file format and 2^42 files.
	hdr := []byte{5, 0, 8, 0, 0, 0, 0, 0, 1, 1, 1, 0xfb, 14, 1, 1, 1, 0x08, 1, 'd', 0, 1, 1, 0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}
	binary.LittleEndian.PutUint32(hdr[4:], uint32(len(hdr)-8))
	table := binary.LittleEndian.AppendUint32(nil, uint32(len(hdr)))
	table = append(table, hdr...)
	if lineTableSane(table, 0, binary.LittleEndian) {
		t.Error("a header claiming 2^42 files in a few bytes passes")
	}
	// The same header with one file "f" passes.
	ok := append(append([]byte(nil), hdr[:23]...), 1, 'f', 0)
	binary.LittleEndian.PutUint32(ok[4:], uint32(len(ok)-8))
	good := append(binary.LittleEndian.AppendUint32(nil, uint32(len(ok))), ok...)
	if !lineTableSane(good, 0, binary.LittleEndian) {
		t.Error("a header with one directory and one file fails")
	}
}

var mutations = flag.Duration("mutations", 0, "for TestMutations: how long to load random mutations of the seeds")

// TestMutations loads random byte mutations of the seeds for -mutations
// long, without the fuzzing engine's instrumentation, and logs how many
// it loaded and the slowest: the work per input is bounded by its size.
// It asserts nothing about time.
//
//	go test ./layout/elfdwarf -run TestMutations -mutations 40s -v
func TestMutations(t *testing.T) {
	if *mutations == 0 {
		t.Skip("needs -mutations DURATION")
	}
	var all [][]byte
	for _, d := range seeds(t) {
		all = append(all, d)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var slowest time.Duration
	n := 0
	start := time.Now()
	for time.Since(start) < *mutations {
		c := slices.Clone(all[rng.IntN(len(all))])
		for k := rng.IntN(8) + 1; k > 0; k-- {
			switch i := rng.IntN(len(c) - 4); rng.IntN(3) {
			case 0:
				c[i] = byte(rng.IntN(256))
			case 1:
				binary.LittleEndian.PutUint32(c[i-i%4:], rng.Uint32())
			default:
				c[i] ^= 0x80
			}
		}
		s := time.Now()
		loadBytes("input.o", c, Options{})
		slowest = max(slowest, time.Since(s))
		n++
	}
	d := time.Since(start)
	t.Logf("%d inputs in %v (%.0f a second), the slowest %v", n, d.Round(time.Millisecond), float64(n)/d.Seconds(), slowest.Round(time.Microsecond))
}
