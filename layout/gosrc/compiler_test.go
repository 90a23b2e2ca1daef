package gosrc

import (
	"bufio"
	"bytes"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
)

// TestCompilerHost checks every layout of the awkward package against the
// Go compiler on this machine: a generated program prints each member's
// offset as the address difference from the outermost object, and the
// compiler's unsafe.Offsetof, Sizeof and Alignof of every member and
// struct, and all of it must equal what Load computed for runtime.GOARCH.
func TestCompilerHost(t *testing.T) {
	requireGoCommand(t)
	structs := loadAwkward(t, runtime.GOARCH)
	dir := t.TempDir()
	entries := writeProbe(t, dir, structs)

	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = goEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr // println writes there
	if err := cmd.Run(); err != nil {
		t.Fatalf("go run probe: %v\n%s", err, stderr.String())
	}
	got := parseProbe(t, stderr.String(), len(entries))

	byName := map[string]*layout.Struct{}
	for _, s := range structs {
		byName[s.Name] = s
	}
	compared := map[string]int{}
	for i, e := range entries {
		s := byName[e.Struct]
		want := compilerFacts{Size: s.Size, Align: s.Align}
		if e.Path != "" {
			f := s.Field(e.Path)
			want = compilerFacts{Offset: f.Offset, Size: f.Size, Align: f.Align}
			compared[e.Struct]++
		}
		if g := got.table[i]; g != want {
			t.Errorf("%s: compiler says %+v, model %+v", e, g, want)
		}
		if e.Path == "" {
			if got.runtime[i] != 0 {
				t.Errorf("%s: a variable of it is %d bytes past its alignment %d", e, got.runtime[i], s.Align)
			}
		} else if got.runtime[i] != want.Offset {
			t.Errorf("%s: at run time at offset %d, model %d", e, got.runtime[i], want.Offset)
		}
	}
	total := 0
	for _, s := range structs {
		if compared[s.Name] == 0 && isLocal(s.Name) {
			t.Errorf("%s: no member compared", s.Name)
		}
		total += compared[s.Name]
	}
	t.Logf("%s: %d structs, %d members compared with the compiler", runtime.GOARCH, len(structs), total)
}

// compilerFacts is what the compiler says about one struct or member.
type compilerFacts struct{ Offset, Size, Align int64 }

// probeOutput is the probe program's output, indexed like its entries.
type probeOutput struct {
	table   []compilerFacts // compile-time constants
	runtime []int64         // "off" or "mis" lines
}

// parseProbe reads the probe's output and fails unless every entry has
// both its run-time line and its three table words.
func parseProbe(t *testing.T, out string, n int) probeOutput {
	t.Helper()
	p := probeOutput{table: make([]compilerFacts, n), runtime: make([]int64, n)}
	seenRun := make([]bool, n)
	words := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			continue
		}
		i, err1 := strconv.Atoi(f[1])
		v, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		switch f[0] {
		case "off", "mis":
			if i < n {
				p.runtime[i], seenRun[i] = v, true
			}
		case "tab":
			if i < 3*n {
				p.table[i/3].set(i%3, v)
				words++
			}
		}
	}
	for i, ok := range seenRun {
		if !ok {
			t.Fatalf("probe printed no run-time line for entry %d; output:\n%s", i, out)
		}
	}
	if words != 3*n {
		t.Fatalf("probe printed %d table words, want %d; output:\n%s", words, 3*n, out)
	}
	return p
}

func (c *compilerFacts) set(k int, v int64) {
	switch k {
	case 0:
		c.Offset = v
	case 1:
		c.Size = v
	default:
		c.Align = v
	}
}

// TestAwkwardCovers32Bit guards the testdata: the comparisons above only
// prove the 32-bit cases if the awkward package still has them, so check
// that on 386 a plain int64 is 4-aligned while an atomic.Int64 after a bool
// is at 8, and that WordSized shrinks from 64-bit to 32-bit.
func TestAwkwardCovers32Bit(t *testing.T) {
	requireGoCommand(t)
	get := func(arch, name string) *layout.Struct {
		for _, s := range loadAwkward(t, arch) {
			if s.Name == awkwardPkg+"."+name {
				return s
			}
		}
		t.Fatalf("no %s for %s", name, arch)
		return nil
	}
	if f := get("386", "Numbers").Field("u64"); f.Align != 4 {
		t.Errorf("386 Numbers.u64: align %d, want 4", f.Align)
	}
	if f := get("386", "Atomics").Field("n"); f.Offset != 8 || f.Align != 8 {
		t.Errorf("386 Atomics.n: offset %d align %d, want 8 and 8", f.Offset, f.Align)
	}
	if s64, s32 := get("amd64", "WordSized").Size, get("386", "WordSized").Size; s32 >= s64 {
		t.Errorf("WordSized: %d bytes on 386, %d on amd64; want fewer on 386", s32, s64)
	}
}
