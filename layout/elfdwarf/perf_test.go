package elfdwarf

import (
	"flag"
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

var perf = flag.Bool("elfperf", false, "time loading a large generated object against pahole (TestPerformance)")

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
func timePahole(t *testing.T, obj string) (time.Duration, int64) {
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

// TestPerformance times mglayout's loader and text output against pahole
// on a generated object of several compile units and thousands of
// structs, in the same run, and reports the ratio and the peak heap:
//
//	go test ./layout/elfdwarf -run TestPerformance -elfperf -v
func TestPerformance(t *testing.T) {
	if !*perf {
		t.Skip("timing run; enable with -elfperf")
	}
	requireGCC(t)
	if _, err := exec.LookPath("pahole"); err != nil {
		t.Skip("pahole not found in PATH (Debian: apt-get install dwarves)")
	}
	dir := t.TempDir()
	start := time.Now()
	obj, distinct := genObject(t, dir)
	st, _ := os.Stat(obj)
	t.Logf("generated %s: %d compile units, %d distinct structs, %.1f MB, in %v", filepath.Base(obj), perfUnits, distinct, float64(st.Size())/1e6, time.Since(start).Round(time.Millisecond))

	n := compareTimes(t, obj)
	if n != distinct {
		t.Errorf("loaded %d structs, the program defines %d", n, distinct)
	}
	// Memory is bounded by the compile units, not the file: loading one
	// struct of the last unit reads them all and keeps two at a time.
	last := fmt.Sprintf("unit%d_%d", perfUnits-1, perfOwn-1)
	onePeak := peakHeap(func() {
		if _, _, err := Load(obj, Options{Types: []string{last}}); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("mglayout peak heap in use when loading only %s: %.0f MB", last, float64(onePeak)/1e6)

	// A real program's debug info, where there is one: the largest
	// separate debug file installed (Debian's libc6-dbg has libc's).
	if files := systemDebugFiles(); len(files) > 0 {
		st, _ := os.Stat(files[0])
		t.Logf("%s: %.1f MB", files[0], float64(st.Size())/1e6)
		compareTimes(t, files[0])
	}
}

// compareTimes times loading and printing every struct of obj against
// pahole in alternation, logs the medians, their ratio and the peak
// memory, fails the test when the ratio is above 2, and returns the
// number of structs loaded.
func compareTimes(t *testing.T, obj string) int {
	t.Helper()
	const rounds = 5
	var ours, pah []time.Duration
	var n int
	var paholeRSS int64
	for r := 0; r < rounds; r++ {
		s := time.Now()
		n = loadAndPrint(t, obj)
		ours = append(ours, time.Since(s))

		d, rss := timePahole(t, obj)
		pah = append(pah, d)
		paholeRSS = max(paholeRSS, rss)
	}
	slices.Sort(ours)
	slices.Sort(pah)
	peak := peakHeap(func() { loadAndPrint(t, obj) })
	var loadOnly time.Duration
	for r := 0; r < rounds; r++ {
		s := time.Now()
		if _, _, err := Load(obj, Options{}); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(s); r == 0 || d < loadOnly {
			loadOnly = d
		}
	}
	ratio := float64(ours[rounds/2]) / float64(pah[rounds/2])
	t.Logf("mglayout (load + text of %d structs): median %v, best %v; load alone best %v; peak heap in use %.0f MB (runtime.MemStats)",
		n, ours[rounds/2].Round(time.Millisecond), ours[0].Round(time.Millisecond), loadOnly.Round(time.Millisecond), float64(peak)/1e6)
	t.Logf("pahole %s > /dev/null: median %v, best %v; peak RSS %.0f MB", filepath.Base(obj), pah[rounds/2].Round(time.Millisecond), pah[0].Round(time.Millisecond), float64(paholeRSS)/1e6)
	t.Logf("ratio mglayout/pahole (medians): %.2f", ratio)
	if ratio > 2 {
		t.Errorf("%s: mglayout takes %.2f× pahole's time, the target is at most 2×", obj, ratio)
	}
	return n
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
