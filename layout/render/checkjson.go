package render

import (
	"encoding/json"
	"github.com/mglayout/mglayout/layout/layoutjson"
	"io"
	"strconv"

	"github.com/mglayout/mglayout/layout/sharing"
)

// CheckDocument is the `check -json` schema: per object, its paths, and
// per line size and phase the figures of each path and the lines where a
// writer meets another path or unknown neighbours.
type CheckDocument struct {
	Objects []CheckObject `json:"objects"`
}

type CheckObject struct {
	Name         string            `json:"name"`
	Source       string            `json:"source"`
	Arch         string            `json:"arch"`
	Size         int64             `json:"size"`
	Align        int64             `json:"align"`
	PhaseReasons map[string]string `json:"phase_reasons"`
	Paths        []layoutjson.Path `json:"paths"`
	Cases        []CheckCase       `json:"cases"`
	FalseSharing bool              `json:"false_sharing"`
}

type CheckCase struct {
	Line   int64             `json:"line"`
	Phase  int64             `json:"phase"`
	Paths  []CheckPath       `json:"paths"`
	Shared []CheckSharedLine `json:"shared_lines"`
}

type CheckPath struct {
	Name       string  `json:"name"`
	Lines      []int64 `json:"lines"`
	Blocks128  int     `json:"blocks_128"`
	FalseLines []int64 `json:"false_lines"`
	TrueLines  []int64 `json:"true_lines"`
	Exposed    []int64 `json:"exposed_lines"`
}

type CheckSharedLine struct {
	Index         int64       `json:"index"`
	Members       []string    `json:"members"`
	Writers       []string    `json:"writers"`
	Touchers      []string    `json:"touchers"`
	Pairs         []CheckPair `json:"pairs"`
	ExposedBefore int64       `json:"exposed_before,omitempty"`
	ExposedAfter  int64       `json:"exposed_after,omitempty"`
}

type CheckPair struct {
	Writer  string   `json:"writer"`
	Other   string   `json:"other"`
	Sharing string   `json:"sharing"` // "true", "false" or "contended"
	Members []string `json:"members"`
	Weight  float64  `json:"weight"`
}

// NewCheckDocument converts an analysis to the JSON schema.
func NewCheckDocument(a *sharing.Analysis) CheckDocument {
	doc := CheckDocument{Objects: []CheckObject{}}
	for _, oa := range a.Objects {
		s := oa.Object.Layout
		co := CheckObject{Name: s.Name, Source: string(s.Source), Arch: s.Arch, Size: s.Size, Align: s.Align,
			PhaseReasons: map[string]string{}, Paths: []layoutjson.Path{}, Cases: []CheckCase{}}
		for l, r := range oa.PhaseReasons {
			co.PhaseReasons[strconv.FormatInt(l, 10)] = r
		}
		for _, p := range oa.Object.Paths {
			co.Paths = append(co.Paths, layoutjson.NewPath(p))
		}
		for _, c := range oa.Cases {
			cc := CheckCase{Line: c.Line, Phase: c.Phase, Paths: []CheckPath{}, Shared: []CheckSharedLine{}}
			for _, f := range c.Paths {
				cc.Paths = append(cc.Paths, CheckPath{Name: f.Path.Name, Lines: nonNil(f.Lines), Blocks128: f.Blocks128,
					FalseLines: nonNil(f.FalseLines), TrueLines: nonNil(f.TrueLines), Exposed: nonNil(f.Exposed)})
			}
			for _, l := range c.Lines {
				if len(l.Pairs) == 0 && !(l.Exposed() && len(l.Touchers) > 0) {
					continue
				}
				sl := CheckSharedLine{Index: l.Index, Members: nonNilS(l.Members), Writers: nonNilS(l.Writers),
					Touchers: nonNilS(l.Touchers), Pairs: []CheckPair{}, ExposedBefore: l.ExposedBefore, ExposedAfter: l.ExposedAfter}
				for _, p := range l.Pairs {
					kind := "false"
					switch {
					case p.Writer == p.Other:
						kind = "contended"
					case p.True:
						kind = "true"
					}
					sl.Pairs = append(sl.Pairs, CheckPair{Writer: p.Writer, Other: p.Other, Sharing: kind, Members: nonNilS(p.Members), Weight: p.Weight})
				}
				cc.Shared = append(cc.Shared, sl)
			}
			if c.FalseWeight() > 0 {
				co.FalseSharing = true
			}
			co.Cases = append(co.Cases, cc)
		}
		doc.Objects = append(doc.Objects, co)
	}
	return doc
}

func nonNil(xs []int64) []int64 {
	if xs == nil {
		return []int64{}
	}
	return xs
}

func nonNilS(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// CheckJSON writes the analysis as one indented JSON document.
func CheckJSON(w io.Writer, a *sharing.Analysis) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewCheckDocument(a))
}
