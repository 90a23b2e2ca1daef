package access

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A Sidecar gives access paths and placement to structs that carry none
// of their own, such as C structs read from DWARF. Its text form, one
// item per line:
//
//	# a comment; blank lines are ignored
//	[tk_core_v6_1]          the struct the lines below are about
//	align 64                the object starts at a multiple of 64 bytes
//	padded 64               what follows the object starts at a multiple of 64 bytes
//	ktime_get cpus=all rate=hot seqread=seq read=timekeeper.xtime_sec -- a note
//
// A path line has the grammar of //mglayout:path directives (Syntax),
// with an optional note after " -- ". Lines before the first [header]
// are about the one struct a command loads.
type Sidecar struct {
	Sections []*Section
}

// Section is what a sidecar says about one struct.
type Section struct {
	Type   string // the struct's name as [Type] gives it; "" before the first header
	Align  int64  // 0 when not given
	Padded int64  // 0 when not given
	Paths  []*Path
	Pos    string // file:line of the header
	// Model names the built-in model whose paths these are (-paths
	// MODEL), which a struct must have every member of.
	Model string
}

// ParseSidecar reads a sidecar; name is the file's name for positions and
// errors, which are one line each: file:line: what is wrong.
func ParseSidecar(name string, r io.Reader) (*Sidecar, error) {
	sc := &Sidecar{}
	cur := &Section{Pos: name + ":1"}
	sc.Sections = append(sc.Sections, cur)
	scan := bufio.NewScanner(r)
	scan.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; scan.Scan(); n++ {
		pos := name + ":" + strconv.Itoa(n)
		line := strings.TrimSpace(scan.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") {
			typ, ok := strings.CutSuffix(line[1:], "]")
			typ = strings.TrimSpace(typ)
			if !ok || typ == "" || strings.ContainsAny(typ, " \t") {
				return nil, fmt.Errorf("%s: %q is not a [TypeName] header", pos, line)
			}
			for _, s := range sc.Sections {
				if s.Type == typ {
					return nil, fmt.Errorf("%s: [%s] again (first at %s); put its lines in one section", pos, typ, s.Pos)
				}
			}
			cur = &Section{Type: typ, Pos: pos}
			sc.Sections = append(sc.Sections, cur)
			continue
		}
		if err := cur.parseLine(line, pos); err != nil {
			return nil, fmt.Errorf("%s: %v", pos, err)
		}
	}
	if err := scan.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return sc, nil
}

// Merge adds the sections of more, as when several paths files are given:
// a section about a struct that sc already has a section about (or the
// lines before the first header) joins it, taking the larger align and
// padded; a path declared in both is an error naming both places.
func (sc *Sidecar) Merge(more *Sidecar) error {
	for _, m := range more.Sections {
		var into *Section
		for _, s := range sc.Sections {
			if s.Type == m.Type {
				into = s
				break
			}
		}
		if into == nil {
			sc.Sections = append(sc.Sections, m)
			continue
		}
		into.Align, into.Padded = max(into.Align, m.Align), max(into.Padded, m.Padded)
		for _, p := range m.Paths {
			if err := into.add(p); err != nil {
				return fmt.Errorf("%s: %v", p.Pos, err)
			}
		}
	}
	return nil
}

// AddPath adds a path given as SPEC [-- note], as on a command line, to the
// lines before the first header.
func (sc *Sidecar) AddPath(spec, pos string) error {
	if len(sc.Sections) == 0 || sc.Sections[0].Type != "" {
		sc.Sections = append([]*Section{{Pos: pos}}, sc.Sections...)
	}
	if err := sc.Sections[0].addPath(spec, pos); err != nil {
		return fmt.Errorf("%s: %v", pos, err)
	}
	return nil
}

func (s *Section) parseLine(line, pos string) error {
	word, rest, _ := strings.Cut(line, " ")
	switch word {
	case "align", "padded":
		n, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
		if err != nil || n <= 0 || n&(n-1) != 0 {
			return fmt.Errorf("%s %q is not a power of two (want e.g. %s 64)", word, strings.TrimSpace(rest), word)
		}
		if word == "align" {
			s.Align = n
		} else {
			s.Padded = n
		}
		return nil
	}
	return s.addPath(line, pos)
}

func (s *Section) addPath(line, pos string) error {
	spec, note, _ := strings.Cut(line, " -- ")
	p, err := Parse(spec)
	if err != nil {
		return err
	}
	p.Pos, p.Doc = pos, strings.TrimSpace(note)
	if p.Doc == "" {
		p.Doc = "declared at " + pos
	}
	return s.add(p)
}

// add appends p, which must be the only path of its name.
func (s *Section) add(p *Path) error {
	for _, other := range s.Paths {
		if other.Name == p.Name {
			return fmt.Errorf("path %s is declared twice (first at %s)", p.Name, other.Pos)
		}
	}
	s.Paths = append(s.Paths, p)
	return nil
}

// Unnamed returns what the lines before the first header say, or nil.
func (sc *Sidecar) Unnamed() *Section {
	for _, s := range sc.Sections {
		if s.Type == "" && (len(s.Paths) > 0 || s.Align > 0 || s.Padded > 0) {
			return s
		}
	}
	return nil
}

// For returns the section about the struct with the given name: the one
// whose header names it, or for a Go type name (import/path.T) the one
// that names pkg.T or T; nil if there is none.
func (sc *Sidecar) For(name string) *Section {
	for _, s := range sc.Sections {
		if s.Type != "" && (s.Type == name || strings.HasSuffix(name, "."+s.Type) || strings.HasSuffix(name, "/"+s.Type)) {
			return s
		}
	}
	return nil
}
