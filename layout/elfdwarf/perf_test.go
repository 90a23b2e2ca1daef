package elfdwarf

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/render"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Sizes of the generated program: every compile unit includes a header of
// common structs, as every kernel file includes the same headers, and
// defines structs of its own.
const (
	perfUnits  = 8
	perfCommon = 1500
	perfOwn    = 600
)

// genStruct writes a struct named name whose members draw on the structs
// before it (prior), with every kind of member the loader handles. Structs
// are nested by value only while the expanded member count (members,
// listed in nested) stays near that of real structs.
func genStruct(b *strings.Builder, rng *rand.Rand, name string, prior []string, nested map[string]int) {
	fmt.Fprintf(b, "struct %s {\n", name)
	n := 4 + rng.Intn(20)
	total := 0
	pick := func() (string, bool) {
		for try := 0; try < 4; try++ {
			p := prior[rng.Intn(len(prior))]
			if total+nested[p] < 400 {
				total += nested[p]
				return p, true
			}
		}
		return "", false
	}
	defer func() { nested[name] = total }()
	for i := 0; i < n; i++ {
		total++
		switch k := rng.Intn(14); {
		case k < 3:
			fmt.Fprintf(b, "\t%s m%d;\n", []string{"char", "int", "long", "short", "double", "u64", "unsigned char"}[rng.Intn(7)], i)
		case k == 3:
			fmt.Fprintf(b, "\tunsigned int f%d : %d;\n", i, 1+rng.Intn(12))
		case k == 4 && len(prior) > 0:
			if p, ok := pick(); ok {
				fmt.Fprintf(b, "\tstruct %s s%d;\n", p, i)
			} else {
				fmt.Fprintf(b, "\tint i%d;\n", i)
			}
		case k == 5 && len(prior) > 0:
			fmt.Fprintf(b, "\tstruct %s *p%d;\n", prior[rng.Intn(len(prior))], i)
		case k == 6:
			fmt.Fprintf(b, "\tshort a%d[%d][%d];\n", i, 1+rng.Intn(4), 1+rng.Intn(4))
		case k == 7:
			fmt.Fprintf(b, "\tunion { int x%d; float y%d; struct { short lo%d, hi%d; }; };\n", i, i, i, i)
		case k == 8:
			fmt.Fprintf(b, "\tvoid (*fn%d)(int, void *);\n", i)
		case k == 9:
			fmt.Fprintf(b, "\tu64 al%d __attribute__((aligned(16)));\n", i)
		case k == 10:
			fmt.Fprintf(b, "\tconst char *name%d;\n", i)
		case k == 11 && len(prior) > 0:
			fmt.Fprintf(b, "\tstruct %s arr%d[%d];\n", prior[rng.Intn(len(prior))], i, 1+rng.Intn(3))
		default:
			fmt.Fprintf(b, "\tvolatile unsigned long c%d;\n", i)
		}
	}
	b.WriteString("};\n")
}

// genObject writes the program into dir, compiles each unit with gcc -g
// and links them into one relocatable object with ld -r, and returns it
// and the number of distinct struct names.
func genObject(t testing.TB, dir string) (string, int) {
	t.Helper()
	rng := rand.New(rand.NewSource(1))
	var h strings.Builder
	h.WriteString("typedef unsigned long long u64;\n")
	var common []string
	nested := map[string]int{}
	for i := 0; i < perfCommon; i++ {
		name := fmt.Sprintf("common%d", i)
		genStruct(&h, rng, name, common, nested)
		common = append(common, name)
	}
	if err := os.WriteFile(filepath.Join(dir, "common.h"), []byte(h.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var objs []string
	var wg sync.WaitGroup
	errs := make([]error, perfUnits)
	for u := 0; u < perfUnits; u++ {
		var c strings.Builder
		c.WriteString("#include \"common.h\"\n")
		prior := slices.Clone(common)
		for i := 0; i < perfOwn; i++ {
			name := fmt.Sprintf("unit%d_%d", u, i)
			genStruct(&c, rng, name, prior, nested)
			prior = append(prior, name)
		}
		src := fmt.Sprintf("unit%d.c", u)
		if err := os.WriteFile(filepath.Join(dir, src), []byte(c.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		obj := fmt.Sprintf("unit%d.o", u)
		objs = append(objs, obj)
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("gcc", "-g", "-fno-eliminate-unused-debug-types", "-c", src, "-o", obj)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[u] = fmt.Errorf("gcc %s: %v\n%s", src, err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("ld", append([]string{"-r", "-o", "big.o"}, objs...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ld -r: %v\n%s", err, out)
	}
	return filepath.Join(dir, "big.o"), perfCommon + perfUnits*perfOwn
}

// loadAndPrint is what mglayout layout -elf FILE does: load every struct
// and print it.
func loadAndPrint(t testing.TB, path string) int {
	structs, _, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var objects []*sharing.Object
	for _, s := range structs {
		objects = append(objects, &sharing.Object{Layout: s, Placement: placement.For(s, true)})
	}
	if err := render.Text(io.Discard, objects, render.Options{Lines: []int64{64, 128}}); err != nil {
		t.Fatal(err)
	}
	return len(structs)
}

// peakHeap runs f and samples the heap in use while it runs.
func peakHeap(f func()) (peak uint64) {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := make(chan bool)
	done := make(chan uint64)
	go func() {
		var m runtime.MemStats
		var peak uint64
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				done <- peak
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	peak = <-done
	return peak - min(base.HeapInuse, peak)
}

// timePahole runs pahole on obj with its output discarded and returns the
// time it took and its peak resident set, which it samples from
// /proc/PID/status (VmHWM) while pahole runs: the rusage of a child
// started from a large process counts the parent's pages too.
func timePahole(t testing.TB, obj string) (time.Duration, int64) {
	t.Helper()
	cmd := exec.Command("pahole", obj)
	cmd.Stdout = io.Discard
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("pahole: %v", err)
	}
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	var hwm int64
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("pahole: %v", err)
			}
			return time.Since(start), hwm
		case <-time.After(time.Millisecond):
			if data, err := os.ReadFile(status); err == nil {
				for _, line := range strings.Split(string(data), "\n") {
					var kb int64
					if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil {
						hwm = max(hwm, kb*1024)
					}
				}
			}
		}
	}
}

// BenchmarkAgainstPahole times what mglayout layout -elf FILE does,
// loading every struct and writing the text to nowhere (tool=mglayout),
// against pahole FILE > /dev/null (tool=pahole), on a generated object of
// several compile units and thousands of structs and, where one is
// installed, the largest separate debug file; it reports mglayout's peak
// heap in use and pahole's peak resident set, and, for the generated
// object, the heap when only one struct of the last unit is loaded:
//
//	go test ./layout/elfdwarf -run '^$' -bench AgainstPahole -count 6 | benchstat -col /tool -
func BenchmarkAgainstPahole(b *testing.B) {
	requireGCC(b)
	if _, err := exec.LookPath("pahole"); err != nil {
		b.Skip("pahole not found in PATH (Debian: apt-get install dwarves)")
	}
	obj, distinct := genObject(b, b.TempDir())
	files := [][2]string{{"generated", obj}}
	if debug := systemDebugFiles(); len(debug) > 0 {
		files = append(files, [2]string{"debug", debug[0]})
	}
	for _, f := range files {
		name, path := f[0], f[1]
		b.Run("file="+name+"/tool=mglayout", func(b *testing.B) {
			var n int
			peak := peakHeap(func() { n = loadAndPrint(b, path) })
			if name == "generated" && n != distinct {
				b.Fatalf("loaded %d structs, the program defines %d", n, distinct)
			}
			for b.Loop() {
				loadAndPrint(b, path)
			}
			b.ReportMetric(float64(peak)/1e6, "MB-heap")
		})
		b.Run("file="+name+"/tool=pahole", func(b *testing.B) {
			var hwm int64
			for b.Loop() {
				_, rss := timePahole(b, path)
				hwm = max(hwm, rss)
			}
			b.ReportMetric(float64(hwm)/1e6, "MB-rss")
		})
	}
	// Memory is bounded by the compile units, not the file: loading one
	// struct of the last unit reads them all and keeps two at a time.
	b.Run("file=generated/tool=mglayout-one-struct", func(b *testing.B) {
		last := fmt.Sprintf("unit%d_%d", perfUnits-1, perfOwn-1)
		load := func() {
			if _, _, err := Load(obj, Options{Types: []string{last}}); err != nil {
				b.Fatal(err)
			}
		}
		peak := peakHeap(load)
		for b.Loop() {
			load()
		}
		b.ReportMetric(float64(peak)/1e6, "MB-heap")
	})
}

// systemDebugFiles returns the separate debug files installed under
// /usr/lib/debug, largest first.
func systemDebugFiles() []string {
	files, _ := filepath.Glob("/usr/lib/debug/.build-id/*/*.debug")
	size := func(name string) int64 {
		st, err := os.Stat(name)
		if err != nil {
			return 0
		}
		return st.Size()
	}
	slices.SortFunc(files, func(a, b string) int { return int(size(b) - size(a)) })
	return files
}

// BenchmarkLoad measures loading every struct of the generated object:
//
//	go test ./layout/elfdwarf -run '^$' -bench Load -benchmem
func BenchmarkLoad(b *testing.B) {
	requireGCC(b)
	obj, _ := genObject(b, b.TempDir())
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := Load(obj, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
