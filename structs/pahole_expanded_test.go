package structs_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/kernelfacts"
)

// expandedStruct is one top-level block of `pahole -E` output: every member
// at every depth, with absolute offsets and dotted paths.
type expandedStruct struct {
	name    string
	entries []expandedEntry
	size    int64
	lines   int64 // "cachelines"
	members int64
	aligned int64
	skipped []string
}

type expandedEntry struct {
	path      string
	off, size int64
	line      int
}

var (
	// A nested struct or union opens with `TYPE {`, after an optional
	// `/* typedef NAME */` comment, and closes with `}NAME; /* OFF SIZE */`
	// (or `} NAME;`), which names it only after its members.
	reExpOpen  = regexp.MustCompile(`^\t+(?:/\*[^*]*\*/ )?(?:struct|union)(?: \w+)? \{$`)
	reExpClose = regexp.MustCompile(`^\t+\} ?(\w*); /\*\s+(\d+)\s+(\d+) \*/$`)
	// A leaf is `TYPE NAME; /* OFF SIZE */`, again after an optional
	// typedef comment; the type must be there.
	reExpLeaf   = regexp.MustCompile(`^\t+(?:/\*[^*]*\*/ )?\S[^;]*?[ *](\w+);\s+/\*\s+(\d+)\s+(\d+) \*/$`)
	reExpIgnore = regexp.MustCompile(`^(\s*|\t+/\* .* \*/)$`)
)

// parseExpanded reads `pahole -E` output. Unparseable lines are kept in
// the block's skipped list (the stored expanded files have none).
func parseExpanded(text string) []*expandedStruct {
	var blocks []*expandedStruct
	var cur *expandedStruct
	// frames[k] collects the entries of the k-th open aggregate, with paths
	// relative to it; closing it prefixes them with its name.
	var frames [][]expandedEntry
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		var m []string
		match := func(re *regexp.Regexp) bool { m = re.FindStringSubmatch(line); return m != nil }
		switch {
		case cur == nil:
			if match(reStructOpen) {
				cur = &expandedStruct{name: m[1]}
				blocks = append(blocks, cur)
				frames = [][]expandedEntry{nil}
			}
		case match(reExpOpen):
			frames = append(frames, nil)
		case match(reExpClose) && len(frames) > 1:
			children := frames[len(frames)-1]
			frames = frames[:len(frames)-1]
			top := &frames[len(frames)-1]
			if m[1] != "" {
				*top = append(*top, expandedEntry{path: m[1], off: atoi(m[2]), size: atoi(m[3]), line: n})
				for i := range children {
					children[i].path = m[1] + "." + children[i].path
				}
			}
			// An anonymous struct or union: its members belong to the
			// enclosing aggregate, as in C.
			*top = append(*top, children...)
		case match(reExpLeaf):
			top := &frames[len(frames)-1]
			*top = append(*top, expandedEntry{path: m[1], off: atoi(m[2]), size: atoi(m[3]), line: n})
		case match(reSize):
			cur.size, cur.lines, cur.members = atoi(m[1]), atoi(m[2]), atoi(m[3])
		case match(reStructEnd) && len(frames) == 1:
			if m[1] != "" {
				cur.aligned = atoi(m[1])
			}
			cur.entries = frames[0]
			cur, frames = nil, nil
		case reExpIgnore.MatchString(line):
		default:
			cur.skipped = append(cur.skipped, line)
		}
	}
	return blocks
}

// expandedFiles maps each block of each stored `pahole -E` file to its
// model ("" when none covers it). smp128 marks the SMP_CACHE_BYTES=128
// build, whose sizes are the 64-aligned model's rounded up to 128 while
// every member stays where it is (see paholeTarget).
var expandedFiles = []struct {
	file   string
	smp128 bool
	blocks map[string]string
}{
	{"pahole_expanded_tk64.txt", false, map[string]string{"tk_core_v6_1": "tk_core@v6.1", "tk_data_v6_13": "tk_data@v6.13"}},
	{"pahole_expanded_tk128.txt", true, map[string]string{"tk_core_v6_1": "tk_core@v6.1", "tk_data_v6_13": "tk_data@v6.13"}},
	// CONFIG_DEBUG_TIMEKEEPING changes tk_core_v6_1 only, and has no model.
	{"pahole_expanded_tk64_dbg.txt", false, map[string]string{"tk_core_v6_1": "", "tk_data_v6_13": "tk_data@v6.13"}},
	// The Guo Hui padding changes tk_core_v6_1 only.
	{"pahole_expanded_tk64_guohui.txt", false, map[string]string{"tk_core_v6_1": "tk_core@v6.1+guohui", "tk_data_v6_13": "tk_data@v6.13"}},
	// The RT seqcount changes both; only tk_core has an RT model.
	{"pahole_expanded_tk64_rt.txt", false, map[string]string{"tk_core_v6_1": "tk_core@v6.1+rt", "tk_data_v6_13": ""}},
}

// TestPaholeExpanded checks every member at every depth that `pahole -E`
// lists (absolute offsets) against the model's Fields by dotted path, and
// the other way round: the model has no named member pahole lacks.
func TestPaholeExpanded(t *testing.T) {
	dir := filepath.Join(kernelfacts.Dir(), "pahole")
	total := 0
	for _, ef := range expandedFiles {
		text, err := os.ReadFile(filepath.Join(dir, ef.file))
		if err != nil {
			t.Fatal(err)
		}
		blocks := parseExpanded(string(text))
		if len(blocks) != len(ef.blocks) {
			t.Errorf("%s: %d blocks, want %d", ef.file, len(blocks), len(ef.blocks))
		}
		for _, b := range blocks {
			where := ef.file + ": struct " + b.name
			name, ok := ef.blocks[b.name]
			if !ok {
				t.Errorf("%s: block not mapped to a model", where)
				continue
			}
			if len(b.skipped) > 0 || len(b.entries) < 40 || b.size == 0 {
				t.Errorf("%s: %d entries, size %d, unparsed lines %q", where, len(b.entries), b.size, b.skipped)
			}
			if name == "" {
				continue
			}
			s := lookup(t, name)
			seen := map[string]bool{}
			for _, e := range b.entries {
				seen[e.path] = true
				f := s.Field(e.path)
				switch {
				case f == nil:
					t.Errorf("%s:%d: %s has no member %s", where, e.line, name, e.path)
				case f.Offset != e.off || f.Size != e.size:
					t.Errorf("%s:%d: %s %s at %d size %d, pahole -E says %d size %d", where, e.line, name, e.path, f.Offset, f.Size, e.off, e.size)
				}
			}
			for _, f := range s.Fields {
				if f.Name != "" && !seen[f.Path] {
					t.Errorf("%s: %s has %s (at %d), which pahole -E does not list", where, name, f.Path, f.Offset)
				}
			}
			total += len(b.entries)

			size, align := s.Size, s.Align
			if ef.smp128 {
				size, align = (s.Size+127)/128*128, 128
			}
			if b.size != size || b.lines != (size+63)/64 || b.members != int64(len(s.Members(-1))) || b.aligned != align {
				t.Errorf("%s: size %d, cachelines %d, members %d, aligned %d; want %d, %d, %d, %d",
					where, b.size, b.lines, b.members, b.aligned, size, (size+63)/64, len(s.Members(-1)), align)
			}
		}
	}
	// tk_core: 47 entries (48 with the padding or the RT lock pointer);
	// tk_data@v6.13: 94. tk64 and tk128 have both, dbg and guohui tk_data
	// and their own tk_core where modelled, rt tk_core only.
	const want = (47 + 94) + (47 + 94) + 94 + (48 + 94) + 48
	if total != want {
		t.Errorf("compared %d pahole -E members, want %d", total, want)
	}
	t.Logf("%d pahole -E members compared", total)
}
