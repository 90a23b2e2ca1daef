package structs_test

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/kernelfacts"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/structs"
)

// lookup returns a model for amd64 or stops the test.
func lookup(t *testing.T, name string) *layout.Struct {
	t.Helper()
	return lookupArch(t, name, "amd64")
}

// lookupArch returns a model for arch or stops the test.
func lookupArch(t *testing.T, name, arch string) *layout.Struct {
	t.Helper()
	s, err := structs.Lookup(name, arch)
	if err != nil {
		t.Fatalf("Lookup(%q, %s): %v", name, arch, err)
	}
	return s
}

// csvModels maps the version column of layouts_x86_64.csv to the model
// that covers that range of kernels (DESIGN.md, kernel_truth.md §1.3).
var csvModels = map[string]string{
	"v6.1-v6.12":  "tk_core@v6.1",
	"v6.13-v6.14": "tk_data@v6.13",
	"v6.15-v6.16": "tk_data@v6.15",
	"v6.17-v7.0":  "tk_data@v6.17",
	"v7.1-rc1":    "tk_data@v7.1",
}

// TestCSV checks every row of layouts_x86_64.csv, which tk_layout.c printed
// with offsetof/sizeof, against the models: offset inside struct timekeeper,
// offset inside tk_core/tk_data, size, and the line indexes at 64 bytes and
// at 128 bytes for both phases a 64-byte-aligned object can start at.
func TestCSV(t *testing.T) {
	dir := kernelfacts.Dir()
	f, err := os.Open(filepath.Join(dir, "layouts_x86_64.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("layouts_x86_64.csv: %v", err)
	}
	header := "version,field,offset_in_timekeeper,size,offset_in_tk_core,line64,line128_phase0,line128_phase64"
	if len(rows) == 0 || strings.Join(rows[0], ",") != header {
		t.Fatalf("layouts_x86_64.csv: header is not %q", header)
	}
	rows = rows[1:]

	matched := 0
	perVersion := map[string]int{}
	// coveredOffsets[model] holds the tk_core offsets the CSV lists, to
	// check below that the model has no member the CSV does not know.
	covered := map[string]map[int64]bool{}
	for i, row := range rows {
		line := i + 2
		var n [6]int64
		for j := range n {
			v, err := strconv.ParseInt(row[2+j], 10, 64)
			if err != nil {
				t.Fatalf("layouts_x86_64.csv:%d: column %d: %v", line, 3+j, err)
			}
			n[j] = v
		}
		r := csvRow{version: row[0], field: row[1], offTK: n[0], size: n[1], offCore: n[2], line64: n[3], line128p0: n[4], line128p64: n[5]}
		perVersion[r.version]++

		if r.version == "tk_read_base" {
			// struct tk_read_base is unchanged from v6.1 to v7.1-rc1 and
			// printed with base 0: check it relative to tkr_mono and
			// tkr_raw in every model that embeds it.
			ok := true
			for _, name := range []string{"tk_core@v6.1", "tk_core@v6.1+guohui", "tk_core@v6.1+rt", "tk_data@v6.13", "tk_data@v6.15", "tk_data@v6.17", "tk_data@v7.1"} {
				s := lookup(t, name)
				for _, tkr := range []string{"timekeeper.tkr_mono", "timekeeper.tkr_raw"} {
					ok = checkCSVRow(t, line, s, tkr, r) && ok
				}
			}
			if ok {
				matched++
			}
			continue
		}
		name, known := csvModels[r.version]
		if !known {
			t.Errorf("layouts_x86_64.csv:%d: version %q maps to no model", line, r.version)
			continue
		}
		if checkCSVRow(t, line, lookup(t, name), "timekeeper", r) {
			matched++
		}
		if covered[name] == nil {
			covered[name] = map[int64]bool{}
		}
		covered[name][r.offCore] = true
	}
	if matched != len(rows) || len(rows) == 0 {
		t.Errorf("matched %d of %d CSV rows", matched, len(rows))
	}
	for _, v := range append([]string{"tk_read_base"}, mapKeys(csvModels)...) {
		if perVersion[v] < 8 {
			t.Errorf("layouts_x86_64.csv: %d rows for %s, want at least 8", perVersion[v], v)
		}
	}
	t.Logf("%d CSV rows matched: %v", matched, perVersion)

	// The other direction: every member of the model's timekeeper (anonymous
	// unions flattened, as C reaches their members) sits at an offset the
	// CSV lists, so the model has no member that the kernel lacks.
	for name, offs := range covered {
		s := lookup(t, name)
		tk := fieldIndex(s, "timekeeper")
		for _, i := range flatMembers(s, tk) {
			if f := &s.Fields[i]; !offs[f.Offset] {
				t.Errorf("%s: %s at %d is in the model but at no offset of layouts_x86_64.csv", name, f.Path, f.Offset)
			}
		}
	}
}

type csvRow struct {
	version, field                                      string
	offTK, size, offCore, line64, line128p0, line128p64 int64
}

// checkCSVRow compares one row with the member prefix.field of s, where
// prefix is the aggregate that offset_in_timekeeper is relative to. For the
// tk_read_base rows offset_in_tk_core is relative to the read base too.
func checkCSVRow(t *testing.T, line int, s *layout.Struct, prefix string, r csvRow) bool {
	t.Helper()
	base := s.Field(prefix)
	f := s.Field(prefix + "." + r.field)
	if base == nil || f == nil {
		t.Errorf("layouts_x86_64.csv:%d: %s has no member %s.%s", line, s.Name, prefix, r.field)
		return false
	}
	off := f.Offset // the CSV's offset_in_tk_core
	if r.version == "tk_read_base" {
		off -= base.Offset
	}
	got := csvRow{
		version: r.version, field: r.field,
		offTK:      f.Offset - base.Offset,
		size:       f.Size,
		offCore:    off,
		line64:     layout.SpanOf(off, f.Size, 64, 0).First,
		line128p0:  layout.SpanOf(off, f.Size, 128, 0).First,
		line128p64: layout.SpanOf(off, f.Size, 128, 64).First,
	}
	if got != r {
		t.Errorf("layouts_x86_64.csv:%d: %s %s.%s:\n got  off_tk %d size %d off_core %d L64 %d L128 %d L128+64 %d\n want off_tk %d size %d off_core %d L64 %d L128 %d L128+64 %d",
			line, s.Name, prefix, r.field,
			got.offTK, got.size, got.offCore, got.line64, got.line128p0, got.line128p64,
			r.offTK, r.size, r.offCore, r.line64, r.line128p0, r.line128p64)
		return false
	}
	return true
}

// fieldIndex returns the index of the member with the given path, or -1
// for the empty path (the outermost object).
func fieldIndex(s *layout.Struct, path string) int {
	if path == "" {
		return -1
	}
	for i := range s.Fields {
		if s.Fields[i].Path == path {
			return i
		}
	}
	panic(s.Name + " has no member " + path)
}

// flatMembers returns the direct members of the aggregate at parent, with
// the members of anonymous structs and unions in place of the anonymous
// aggregate, as C names them.
func flatMembers(s *layout.Struct, parent int) []int {
	var out []int
	for _, i := range s.Members(parent) {
		if s.Fields[i].Name == "" {
			out = append(out, flatMembers(s, i)...)
		} else {
			out = append(out, i)
		}
	}
	return out
}

func mapKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
