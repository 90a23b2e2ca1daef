package gosrc

import (
	"fmt"
	"strings"
	"testing"
)

// TestLoadErrorsNameTheInput checks that each bad input to Load is one
// line that names it, so that the command can print it as is and exit 2.
func TestLoadErrorsNameTheInput(t *testing.T) {
	requireGoCommand(t)
	for _, c := range []struct {
		name     string
		cfg      Config
		patterns []string
		mention  string // the input the message must name
	}{
		{"unknown package", Config{Dir: testdataModule}, []string{"./nosuchpkg"}, "nosuchpkg"},
		{"type error", Config{Dir: testdataModule}, []string{"./broken"}, "mglayout.test/broken"},
		{"unknown GOARCH", Config{Dir: testdataModule, Archs: []string{"vax"}}, []string{"./awkward"}, `"vax"`},
		{"unknown type", Config{Dir: testdataModule, Types: []string{"NoSuchType"}}, []string{"./awkward"}, "NoSuchType"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Load(c.cfg, c.patterns)
			if err == nil {
				t.Fatalf("Load succeeded with %d structs, want an error", len(res.Structs))
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, c.mention) {
				t.Errorf("error %q: want one line that names %s", msg, c.mention)
			}
		})
	}
	// The type error must point at the offending line, not just the package.
	_, err := Load(Config{Dir: testdataModule}, []string{"./broken"})
	if err == nil || !strings.Contains(err.Error(), "broken.go:7") {
		t.Errorf("type error %v: want the position broken.go:7", err)
	}
}

// TestLoadGenerics checks how generic struct types are reported: one that
// nothing instantiates is laid out as its stand-in, named by its type
// parameters and saying so; each instantiation gets a layout named with
// its type arguments; instantiations over type parameters (inside the
// generic type itself or a generic function) get none.
func TestLoadGenerics(t *testing.T) {
	requireGoCommand(t)
	res, err := Load(Config{Dir: testdataModule, Archs: []string{"amd64"}}, []string{"./awkward"})
	if err != nil {
		t.Fatal(err)
	}

	// Compare names without the space after commas, which go/types writes
	// and reflect and DWARF do not.
	names := map[string]bool{}
	for _, s := range res.Structs {
		name := strings.ReplaceAll(s.Name, ", ", ",")
		names[name] = true
		if name == awkwardPkg+".Lonely[T]" {
			if !strings.Contains(s.Doc, "generic.go:") || !strings.Contains(s.Doc, "a stand-in for its instances, each type parameter a pointer-sized word") {
				t.Errorf("%s: doc %q, want its position and that it is a stand-in", s.Name, s.Doc)
			}
			continue
		}
		if strings.Contains(name, "[K") || strings.Contains(name, "[T") {
			t.Errorf("layout for %s, which is not a concrete type", s.Name)
		}
	}
	if !names[awkwardPkg+".Lonely[T]"] {
		t.Errorf("no stand-in for the uninstantiated %s.Lonely", awkwardPkg)
	}
	for _, want := range []string{
		awkwardPkg + ".Pair[int8,int64]",
		awkwardPkg + ".Pair[bool,complex128]",
		awkwardPkg + ".Pair[string," + awkwardPkg + ".Inner]",
	} {
		if !names[want] {
			t.Errorf("no layout for the instantiation %s", want)
		}
	}

	// A user selects an instantiation by its short name, as gofmt spells it.
	res, err = Load(Config{Dir: testdataModule, Archs: []string{"amd64"}, Types: []string{"Pair[int8, int64]"}}, []string{"./awkward"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Structs) != 1 {
		t.Fatalf("-type Pair[int8, int64]: %d structs, want 1", len(res.Structs))
	}
	s := res.Structs[0]
	var got []string
	for _, f := range s.Fields {
		got = append(got, fmt.Sprintf("%s@%d+%d", f.Path, f.Offset, f.Size))
	}
	// The compiler's numbers for amd64: int8 key, 7 bytes of padding,
	// int64 val, *Pair next.
	if want := "key@0+1 val@8+8 next@16+8"; strings.Join(got, " ") != want || s.Size != 24 || s.Align != 8 {
		t.Errorf("%s: size %d align %d, fields %s; want 24, 8, %s", s.Name, s.Size, s.Align, strings.Join(got, " "), want)
	}
}
