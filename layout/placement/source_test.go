package placement

// The tests in this file keep the package honest when Go changes: they read
// the installed toolchain's source and fail when the tables or the code
// that the rules transcribe no longer match. Regenerate the size classes
// with
//
//	go generate ./layout/placement
//
// and re-read the code named by a failing snippet before changing a rule.

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/golden"
)

// goEnv returns a variable of the installed Go command, skipping the test
// when there is none.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command in PATH")
	}
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// runtimeTables holds the integer constants and the integer array variables
// of the runtime's generated size-class file.
type runtimeTables struct {
	consts map[string]int64
	arrays map[string][]int64
}

// readSizeClasses parses GOROOT/src/internal/runtime/gc/sizeclasses.go.
// Arrays whose elements are not all integer literals (the division magic)
// are left out.
func readSizeClasses(t *testing.T, path string) runtimeTables {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	tab := runtimeTables{consts: map[string]int64{}, arrays: map[string][]int64{}}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gd.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
				continue
			}
			name := vs.Names[0].Name
			switch v := vs.Values[0].(type) {
			case *ast.BasicLit:
				if n, ok := intLit(v); ok {
					tab.consts[name] = n
				}
			case *ast.CompositeLit:
				var elems []int64
				for _, e := range v.Elts {
					lit, ok := e.(*ast.BasicLit)
					n, ok2 := intLit(lit)
					if !ok || !ok2 {
						elems = nil
						break
					}
					elems = append(elems, n)
				}
				if elems != nil {
					tab.arrays[name] = elems
				}
			}
		}
	}
	for _, c := range []string{"MaxSmallSize", "SmallSizeMax", "SmallSizeDiv", "LargeSizeDiv"} {
		if _, ok := tab.consts[c]; !ok {
			t.Fatalf("%s: no constant %s", path, c)
		}
	}
	for _, a := range []string{"SizeClassToSize", "SizeToSizeClass8", "SizeToSizeClass128"} {
		if len(tab.arrays[a]) == 0 {
			t.Fatalf("%s: no integer table %s", path, a)
		}
	}
	return tab
}

func intLit(lit *ast.BasicLit) (int64, bool) {
	if lit == nil || lit.Kind != token.INT {
		return 0, false
	}
	n, err := strconv.ParseInt(lit.Value, 0, 64)
	return n, err == nil
}

func runtimeSizeClassFile(t *testing.T) string {
	return filepath.Join(goEnv(t, "GOROOT"), "src", "internal", "runtime", "gc", "sizeclasses.go")
}

// TestSizeClasses checks that sizeclasses.go is what mksizeclasses.go
// writes from the installed Go's runtime source.
func TestSizeClasses(t *testing.T) {
	goversion := goEnv(t, "GOVERSION")
	var stderr bytes.Buffer
	cmd := exec.Command("go", "run", "mksizeclasses.go", "-stdout")
	cmd.Stderr = &stderr
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run mksizeclasses.go -stdout: %v\n%s", err, stderr.Bytes())
	}
	got, err := os.ReadFile("sizeclasses.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("sizeclasses.go is not what mksizeclasses.go writes from the runtime source of %s (run go generate ./layout/placement):\n%s",
			goversion, golden.FirstDiff(string(want), string(got)))
	}
}

// TestClassLookup checks that the smallest class that fits is the class the
// runtime's lookup tables give, for every small size, as
// mallocgcSmallNoscan and mallocgcSmallScanHeader compute it.
func TestClassLookup(t *testing.T) {
	path := runtimeSizeClassFile(t)
	tab := readSizeClasses(t, path)
	sizes := tab.arrays["SizeClassToSize"]
	small8, small128 := tab.arrays["SizeToSizeClass8"], tab.arrays["SizeToSizeClass128"]
	smallMax, div8, div128 := tab.consts["SmallSizeMax"], tab.consts["SmallSizeDiv"], tab.consts["LargeSizeDiv"]
	divRoundUp := func(n, d int64) int64 { return (n + d - 1) / d }
	for size := int64(1); size <= tab.consts["MaxSmallSize"]; size++ {
		var class int64
		if size <= smallMax-8 {
			class = small8[divRoundUp(size, div8)]
		} else {
			class = small128[divRoundUp(size-smallMax, div128)]
		}
		if got := classFor(size).size; got != sizes[class] {
			t.Fatalf("size %d: classFor gives %d, the runtime's tables %d", size, got, sizes[class])
		}
	}
}

// The runtime and linker code that the rules transcribe, as it reads
// without comments and with spaces collapsed. A snippet that is gone means
// the rule it backs must be re-read.
var sourceSnippets = []struct{ file, code, rule string }{
	{"runtime/malloc.go", "if size == 0 { return unsafe.Pointer(&zerobase) }", "zero-size objects"},
	{"runtime/malloc.go", "if size <= maxSmallSize-gc.MallocHeaderSize { if typ == nil || !typ.Pointers() {", "largeSize"},
	{"runtime/malloc.go", "if size < maxTinySize && gp.secret == 0 { x, elemsize = mallocgcTiny(size, typ)", "tiny objects"},
	{"runtime/malloc.go", "maxTinySize = _TinySize", "tinySize"},
	{"runtime/malloc.go", "_TinySize = gc.TinySize", "tinySize"},
	{"runtime/malloc.go", "if size&7 == 0 { off = alignUp(off, 8) } else if goarch.PtrSize == 4 && size == 12 { off = alignUp(off, 8) } else if size&3 == 0 { off = alignUp(off, 4) } else if size&1 == 0 { off = alignUp(off, 2) } if off+size <= maxTinySize && c.tiny != 0 {", "tinyAlign"},
	{"runtime/malloc.go", "if heapBitsInSpan(size) { x, elemsize = mallocgcSmallScanNoHeader(size, typ) } else { x, elemsize = mallocgcSmallScanHeader(size, typ) }", "malloc header"},
	{"runtime/malloc.go", "size += gc.MallocHeaderSize", "malloc header"},
	{"runtime/malloc.go", "header := (**_type)(x) x = add(x, gc.MallocHeaderSize)", "malloc header"},
	{"runtime/malloc.go", "x := unsafe.Pointer(span.base())", "large objects"},
	{"runtime/mbitmap.go", "return userSize <= gc.MinSizeForMallocHeader", "minSizeForMallocHeader"},
	{"internal/runtime/gc/malloc.go", "MallocHeaderSize = 8", "mallocHeaderSize"},
	{"internal/runtime/gc/malloc.go", "MinSizeForMallocHeader = goarch.PtrSize * goarch.PtrBits", "minSizeForMallocHeader"},
	{"cmd/link/internal/ld/data.go", "align = int32(thearch.Maxalign) ssz := ldr.SymSize(s) for int64(align) > ssz && align > min { align >>= 1 }", "global"},
	{"cmd/internal/obj/objfile.go", "var align uint32 if fn := s.Func(); fn != nil { align = uint32(fn.Align) } if s.ContentAddressable() && s.Size != 0 {", "global"},
}

var (
	lineComment = regexp.MustCompile(`//[^\n]*`)
	spaces      = regexp.MustCompile(`\s+`)
)

func TestRuntimeSource(t *testing.T) {
	src := filepath.Join(goEnv(t, "GOROOT"), "src")
	texts := map[string]string{}
	for _, s := range sourceSnippets {
		text, ok := texts[s.file]
		if !ok {
			b, err := os.ReadFile(filepath.Join(src, s.file))
			if err != nil {
				t.Fatal(err)
			}
			text = spaces.ReplaceAllString(lineComment.ReplaceAllString(string(b), ""), " ")
			texts[s.file] = text
		}
		if !strings.Contains(text, s.code) {
			t.Errorf("%s no longer has %q: re-read it and check %s", s.file, s.code, s.rule)
		}
	}
}

// linkDirs names the linker's directory for each GOARCH.
var linkDirs = map[string]string{
	"386": "x86", "mipsle": "mips", "mips64le": "mips64", "ppc64le": "ppc64",
}

var (
	maxAlignRE = regexp.MustCompile(`(?i)\bmaxalign\s*[=:]\s*(\d+)`)
	minAlignRE = regexp.MustCompile(`(?i)\bminalign\s*[=:]\s*(\d+)`)
)

// TestArches checks the GOARCH table: pointer sizes against go/types, the
// data alignment bounds against each linker's source.
func TestArches(t *testing.T) {
	src := filepath.Join(goEnv(t, "GOROOT"), "src", "cmd", "link", "internal")
	for name, a := range arches {
		sizes := types.SizesFor("gc", name)
		if sizes == nil {
			t.Errorf("%s: go/types does not know it", name)
			continue
		}
		if got := sizes.Sizeof(types.Typ[types.UnsafePointer]); got != a.ptrSize {
			t.Errorf("%s: ptrSize %d, go/types says %d", name, a.ptrSize, got)
		}
		dir := linkDirs[name]
		if dir == "" {
			dir = name
		}
		// The bounds are constants in l.go, or literals in obj.go
		// for wasm, which has no l.go.
		var text []byte
		for _, file := range []string{"l.go", "obj.go"} {
			b, err := os.ReadFile(filepath.Join(src, dir, file))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			text = append(text, b...)
		}
		for _, bound := range []struct {
			name string
			re   *regexp.Regexp
			want int64
		}{{"maxAlign", maxAlignRE, a.maxAlign}, {"minAlign", minAlignRE, a.minAlign}} {
			m := bound.re.FindSubmatch(text)
			if m == nil {
				t.Errorf("%s: no %s in cmd/link/internal/%s", name, bound.name, dir)
				continue
			}
			if got, _ := strconv.ParseInt(string(m[1]), 10, 64); got != bound.want {
				t.Errorf("%s: %s %d, cmd/link/internal/%s says %d", name, bound.name, bound.want, dir, got)
			}
		}
	}
}
