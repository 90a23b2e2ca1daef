package structs_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/kernelfacts"
	"github.com/mglayout/mglayout/layout"
)

// paholeStruct is one `struct NAME { ... }` block of pahole's default
// output: its direct members and its summary comments.
type paholeStruct struct {
	name    string
	members []paholeMember
	paholeSummary
	lineSize int64 // from "--- cacheline N boundary (B bytes)": B/N; 0 if none
	skipped  []string
}

// paholeSummary holds the figures of a block's summary comments. A line
// that pahole leaves out when its figure is zero (holes, padding) leaves
// the field at zero.
type paholeSummary struct {
	size, cachelines, nmembers  int64
	sumMembers, holes, sumHoles int64
	padding                     int64
	paddings, sumPaddings       int64
	lastCacheline               int64 // -1 when pahole printed no "last cacheline" line
	aligned                     int64 // from `} __attribute__((__aligned__(N)));`, 0 if absent
}

type paholeMember struct {
	name      string
	off, size int64
	line      int
}

var (
	reStructOpen = regexp.MustCompile(`^struct (\w+) \{$`)
	reStructEnd  = regexp.MustCompile(`^\}(?: __attribute__\(\(__aligned__\((\d+)\)\)\))?;$`)
	// A member line is tab-indented: `\tTYPE NAME;   /*   OFF   SIZE */`.
	// Requiring the tab and a type keeps the halves of a line that a stray
	// stderr message split in two from parsing as members.
	reMember   = regexp.MustCompile(`^\t(\S[^/;]*?)\s+\**(\w+);\s+/\*\s+(\d+)\s+(\d+)\s+\*/$`)
	reSize     = regexp.MustCompile(`^\t/\* size: (\d+), cachelines: (\d+), members: (\d+) \*/$`)
	reSum      = regexp.MustCompile(`^\t/\* sum members: (\d+), holes: (\d+), sum holes: (\d+) \*/$`)
	rePadding  = regexp.MustCompile(`^\t/\* padding: (\d+) \*/$`)
	rePaddings = regexp.MustCompile(`^\t/\* paddings: (\d+), sum paddings: (\d+) \*/$`)
	reLast     = regexp.MustCompile(`^\t/\* last cacheline: (\d+) bytes \*/$`)
	reBoundary = regexp.MustCompile(`/\* --- cacheline (\d+) boundary \((\d+) bytes\)`)
	// Lines that carry nothing the test checks.
	reIgnore = regexp.MustCompile(`^(\s*|\t/\* XXX .* \*/|\t/\* --- cacheline .* --- \*/)$`)
)

func atoi(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic(err) // the regexps only let digits through
	}
	return n
}

// parsePahole reads pahole's default output. Lines it cannot parse are
// kept in the block's skipped list (or returned when outside any block):
// the stored files contain one line that pahole's stderr was spliced into.
func parsePahole(text string) (blocks []*paholeStruct, outside []string) {
	var cur *paholeStruct
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if cur == nil {
			if m := reStructOpen.FindStringSubmatch(line); m != nil {
				cur = &paholeStruct{name: m[1]}
				cur.lastCacheline = -1
				blocks = append(blocks, cur)
			} else if strings.TrimSpace(line) != "" {
				outside = append(outside, line)
			}
			continue
		}
		if m := reBoundary.FindStringSubmatch(line); m != nil && atoi(m[1]) > 0 {
			cur.lineSize = atoi(m[2]) / atoi(m[1])
		}
		var m []string
		match := func(re *regexp.Regexp) bool { m = re.FindStringSubmatch(line); return m != nil }
		switch {
		case match(reMember):
			cur.members = append(cur.members, paholeMember{name: m[2], off: atoi(m[3]), size: atoi(m[4]), line: n})
		case match(reSize):
			cur.size, cur.cachelines, cur.nmembers = atoi(m[1]), atoi(m[2]), atoi(m[3])
		case match(reSum):
			cur.sumMembers, cur.holes, cur.sumHoles = atoi(m[1]), atoi(m[2]), atoi(m[3])
		case match(rePadding):
			cur.padding = atoi(m[1])
		case match(rePaddings):
			cur.paddings, cur.sumPaddings = atoi(m[1]), atoi(m[2])
		case match(reLast):
			cur.lastCacheline = atoi(m[1])
		case match(reStructEnd):
			if m[1] != "" {
				cur.aligned = atoi(m[1])
			}
			cur = nil
		case reIgnore.MatchString(line):
		default:
			cur.skipped = append(cur.skipped, line)
		}
	}
	return blocks, outside
}

// paholeTarget says which part of which model a pahole block describes.
type paholeTarget struct {
	model string // "" when no model covers the block; why says which configuration
	// parent is the model member the block lays out, "" for the whole
	// object; pahole's offsets are relative to it.
	parent string
	// smp128 marks a top-level block from the SMP_CACHE_BYTES=128 build
	// (pahole_tk128.txt): ____cacheline_aligned is 128 there, which pads
	// tk_core to 384 and tk_data to 640 bytes and moves no member. The
	// models are 64-aligned (x86_64 and arm64 both use 64), so the test
	// checks the members and holes as they are and the size, padding and
	// line count as the model's rounded up to 128, which is what gcc does.
	smp128 bool
	why    string
}

// paholeFiles maps each struct block of each stored pahole file to the model
// it must equal. Every block must be listed, so a new block cannot go
// unchecked unnoticed. lineSize is the --cacheline_size the file was made
// with (BUILD.txt: 64, pahole's default, except pahole_tk64_cl128.txt);
// the test also reads it back from the file's cacheline boundary markers.
var paholeFiles = []struct {
	file     string
	lineSize int64
	blocks   map[string]paholeTarget
}{
	{"pahole_tk64.txt", 64, map[string]paholeTarget{
		"tk_read_base":     {model: "tk_core@v6.1", parent: "timekeeper.tkr_mono"},
		"tk_core_v6_1":     {model: "tk_core@v6.1"},
		"timekeeper_v6_1":  {model: "tk_core@v6.1", parent: "timekeeper"},
		"tk_data_v6_13":    {model: "tk_data@v6.13"},
		"timekeeper_v6_13": {model: "tk_data@v6.13", parent: "timekeeper"},
	}},
	{"pahole_tk64_cl128.txt", 128, map[string]paholeTarget{
		"tk_core_v6_1":  {model: "tk_core@v6.1"},
		"tk_data_v6_13": {model: "tk_data@v6.13"},
	}},
	{"pahole_tk128.txt", 64, map[string]paholeTarget{
		"tk_read_base":     {model: "tk_core@v6.1", parent: "timekeeper.tkr_mono"},
		"tk_core_v6_1":     {model: "tk_core@v6.1", smp128: true},
		"timekeeper_v6_1":  {model: "tk_core@v6.1", parent: "timekeeper"},
		"tk_data_v6_13":    {model: "tk_data@v6.13", smp128: true},
		"timekeeper_v6_13": {model: "tk_data@v6.13", parent: "timekeeper"},
	}},
	// -DGUOHUI_PADDING changes struct timekeeper_v6_1 only.
	{"pahole_tk64_guohui.txt", 64, map[string]paholeTarget{
		"tk_read_base":     {model: "tk_core@v6.1+guohui", parent: "timekeeper.tkr_mono"},
		"tk_core_v6_1":     {model: "tk_core@v6.1+guohui"},
		"timekeeper_v6_1":  {model: "tk_core@v6.1+guohui", parent: "timekeeper"},
		"tk_data_v6_13":    {model: "tk_data@v6.13"},
		"timekeeper_v6_13": {model: "tk_data@v6.13", parent: "timekeeper"},
	}},
	// -DRT_OR_LOCKDEP_SEQ makes every seqcount 16 bytes; only tk_core@v6.1
	// has an RT model.
	{"pahole_tk64_rt.txt", 64, map[string]paholeTarget{
		"tk_read_base":     {model: "tk_core@v6.1+rt", parent: "timekeeper.tkr_mono"},
		"tk_core_v6_1":     {model: "tk_core@v6.1+rt"},
		"timekeeper_v6_1":  {model: "tk_core@v6.1+rt", parent: "timekeeper"},
		"tk_data_v6_13":    {why: "tk_data with the 16-byte RT seqcount has no model"},
		"timekeeper_v6_13": {model: "tk_data@v6.13", parent: "timekeeper"},
	}},
	// -DCONFIG_DEBUG_TIMEKEEPING adds three members to timekeeper_v6_1
	// only; v6.13 removed the option.
	{"pahole_tk64_dbg.txt", 64, map[string]paholeTarget{
		"tk_read_base":     {model: "tk_core@v6.1", parent: "timekeeper.tkr_mono"},
		"tk_core_v6_1":     {why: "CONFIG_DEBUG_TIMEKEEPING (296-byte timekeeper) has no model"},
		"timekeeper_v6_1":  {why: "CONFIG_DEBUG_TIMEKEEPING (296-byte timekeeper) has no model"},
		"tk_data_v6_13":    {model: "tk_data@v6.13"},
		"timekeeper_v6_13": {model: "tk_data@v6.13", parent: "timekeeper"},
	}},
}

// TestPahole checks every block of pahole's default output against the
// model: each member's offset and size, and the summary figures pahole
// computes (size, cachelines, members, sum members, holes, padding,
// paddings, last cacheline, alignment).
func TestPahole(t *testing.T) {
	dir := filepath.Join(kernelfacts.Dir(), "pahole")
	total := 0
	for _, pf := range paholeFiles {
		text, err := os.ReadFile(filepath.Join(dir, pf.file))
		if err != nil {
			t.Fatal(err)
		}
		blocks, outside := parsePahole(string(text))
		for _, l := range outside {
			t.Errorf("%s: line outside any struct: %q", pf.file, l)
		}
		seen := map[string]bool{}
		markers := false
		for _, b := range blocks {
			markers = markers || b.lineSize != 0
			where := pf.file + ": struct " + b.name
			tgt, ok := pf.blocks[b.name]
			if !ok {
				t.Errorf("%s: block not mapped to a model", where)
				continue
			}
			seen[b.name] = true
			// Not vacuous: the block must have parsed. A spliced line may
			// cost one member, and only where a line was skipped.
			if b.size == 0 || b.nmembers < 2 || len(b.members) < int(b.nmembers)-1 ||
				(len(b.members) < int(b.nmembers) && len(b.skipped) == 0) || len(b.skipped) > 2 {
				t.Errorf("%s: parsed %d of %d members (size %d), skipped %q", where, len(b.members), b.nmembers, b.size, b.skipped)
			}
			if b.lineSize != 0 && b.lineSize != pf.lineSize {
				t.Errorf("%s: cacheline markers say %d-byte lines, want %d", where, b.lineSize, pf.lineSize)
			}
			if tgt.model == "" {
				t.Logf("%s: not compared: %s", where, tgt.why)
				continue
			}
			total += checkPaholeBlock(t, where, b, lookup(t, tgt.model), tgt, pf.lineSize)
		}
		if !markers {
			t.Errorf("%s: no cacheline boundary marker to confirm the %d-byte lines by", pf.file, pf.lineSize)
		}
		for name := range pf.blocks {
			if !seen[name] {
				t.Errorf("%s: no block for struct %s", pf.file, name)
			}
		}
	}
	// 2+23+4+23+8 (tk64) + 2+4 (cl128) + 8+2+23+4+23 (tk128) + 8+2+24+4+23
	// (guohui) + 8+2+23+23 (rt) + 8+4+23 (dbg), less the member that the
	// spliced stderr line cost in five of the files.
	const want = 60 + 6 + 60 + 61 + 56 + 35 - 5
	if total != want {
		t.Errorf("compared %d pahole members, want %d", total, want)
	}
	t.Logf("%d pahole members compared", total)
}

// checkPaholeBlock compares one block with the model member it describes
// and returns the number of members compared.
func checkPaholeBlock(t *testing.T, where string, b *paholeStruct, s *layout.Struct, tgt paholeTarget, line int64) int {
	t.Helper()
	parent := fieldIndex(s, tgt.parent)
	var base int64
	if parent >= 0 {
		base = s.Fields[parent].Offset
	}
	for _, m := range b.members {
		path := m.name
		if tgt.parent != "" {
			path = tgt.parent + "." + m.name
		}
		f := s.Field(path)
		if f == nil {
			t.Errorf("%s:%d: %s has no member %s", where, m.line, s.Name, path)
			continue
		}
		if f.Offset != base+m.off || f.Size != m.size {
			t.Errorf("%s:%d: %s %s at %d size %d, pahole says %d size %d", where, m.line, s.Name, path, f.Offset-base, f.Size, m.off, m.size)
		}
	}

	want := modelFigures(s, parent, line)
	if tgt.smp128 {
		lastEnd := s.Size - s.TailPadding(-1)
		want.size = (s.Size + 127) / 128 * 128
		want.padding = want.size - lastEnd
		want.cachelines = (want.size + line - 1) / line
		want.aligned = 128
		if want.size%line == 0 {
			want.lastCacheline = -1
		}
	}
	if b.paholeSummary != want {
		t.Errorf("%s: %s summary differs:\n got  %+v\n want %+v", where, s.Name, b.paholeSummary, want)
	}
	return len(b.members)
}

// modelFigures computes from the model the summary pahole prints for the
// aggregate at parent (-1 for the whole object) at the given line size.
func modelFigures(s *layout.Struct, parent int, line int64) paholeSummary {
	fig := paholeSummary{lastCacheline: -1}
	if parent < 0 {
		fig.size = s.Size
		fig.cachelines = s.LineCount(line)
		fig.aligned = s.Align
	} else {
		fig.size = s.Fields[parent].Size
		fig.cachelines = (fig.size + line - 1) / line
	}
	if fig.size%line != 0 {
		fig.lastCacheline = fig.size % line
	}
	members := s.Members(parent)
	fig.nmembers = int64(len(members))
	for _, i := range members {
		fig.sumMembers += s.Fields[i].Size
		// pahole's "paddings": members whose own type ends in padding.
		if s.Fields[i].Kind == layout.KindStruct {
			if p := s.TailPadding(i); p > 0 {
				fig.paddings++
				fig.sumPaddings += p
			}
		}
	}
	for _, h := range s.DirectHoles(parent) {
		fig.holes++
		fig.sumHoles += h.Size
	}
	if fig.holes == 0 {
		fig.sumMembers = 0 // pahole prints "sum members" only beside holes
	}
	fig.padding = s.TailPadding(parent)
	return fig
}

// TestParsePaholeSpliced checks that the parser drops, rather than
// misreads, a member line that pahole's stderr was spliced into, as in the
// stored files.
func TestParsePaholeSpliced(t *testing.T) {
	text := "struct x {\n" +
		"\tlong unsigned int          ktime_sec;            /*    64     8 */\n" +
		"\tstruct timespec64  pahole: type 'tk_data_v6_15' not found\n" +
		"        wall_to_monotonic;    /*    72    16 */\n" +
		"\tu64                        xtime_sec;            /*    88  pahole: type 'tk_data_v6_15' not found\n" +
		"   8 */\n" +
		"\tstruct clocksource *       clock;                /*    96     8 */\n" +
		"\n\t/* size: 104, cachelines: 2, members: 4 */\n" +
		"} __attribute__((__aligned__(64)));\n"
	blocks, outside := parsePahole(text)
	if len(blocks) != 1 || len(outside) != 0 {
		t.Fatalf("got %d blocks, %d lines outside", len(blocks), len(outside))
	}
	b := blocks[0]
	if len(b.members) != 2 || b.members[0].name != "ktime_sec" || b.members[1].name != "clock" || b.members[1].off != 96 {
		t.Errorf("members %+v, want ktime_sec and clock", b.members)
	}
	if len(b.skipped) != 4 || b.size != 104 || b.cachelines != 2 || b.nmembers != 4 || b.aligned != 64 {
		t.Errorf("skipped %q, size %d cachelines %d members %d aligned %d", b.skipped, b.size, b.cachelines, b.nmembers, b.aligned)
	}
}
