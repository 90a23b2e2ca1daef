package render

import (
	"encoding/json"
	"fmt"
	"github.com/mglayout/mglayout/layout/layoutjson"
	"io"
	"strings"

	"github.com/mglayout/mglayout/layout/diff"
)

// DiffDocument is the `diff -json` schema.
type DiffDocument struct {
	Old         string           `json:"old"`
	New         string           `json:"new"`
	Arch        string           `json:"arch"`
	Regression  bool             `json:"regression"`
	WorseAt     []int64          `json:"worse_at"`  // line sizes with a regression
	BetterAt    []int64          `json:"better_at"` // line sizes where a path gains and none regresses
	Strict      bool             `json:"strict"`    // judged with -strict
	Gate        []DiffChange     `json:"gate"`      // each path that changed, as the gate weighs it
	Rows        []DiffRow        `json:"rows"`
	Moves       []DiffMove       `json:"moves"`
	Added       []string         `json:"added"`
	Removed     []string         `json:"removed"`
	OnlyOld     []string         `json:"only_old"`
	OnlyNew     []string         `json:"only_new"`
	Separations []DiffSeparation `json:"separations"`
	FalseOld    int              `json:"false_pairs_old"`
	FalseNew    int              `json:"false_pairs_new"`
	// Moved is set when the layouts are identical and only where the
	// object starts changed (diff.Moved).
	Moved *DiffMoved `json:"moved,omitempty"`
}

// DiffMoved is a placement that moved while the layout did not.
type DiffMoved struct {
	OldAddress *layoutjson.Address `json:"old_address,omitempty"`
	NewAddress *layoutjson.Address `json:"new_address,omitempty"`
	OldPhases  map[string][]int64  `json:"old_phases"`
	NewPhases  map[string][]int64  `json:"new_phases"`
	Neighbours []string            `json:"neighbours"`
}

// DiffChange is a path's change as the gate weighs it (diff.PathChange).
type DiffChange struct {
	Path       string   `json:"path"`
	What       string   `json:"what"`
	Rate       string   `json:"rate"`
	Worse      bool     `json:"worse"`
	Outweighed bool     `json:"outweighed"`
	Line       int64    `json:"line"`
	Phase      int64    `json:"phase"`
	NewPhase   int64    `json:"new_phase"`
	Old        int      `json:"cost_old"`
	New        int      `json:"cost_new"`
	Changes    []string `json:"changes"`
}

type DiffRow struct {
	Path     string      `json:"path"`
	Line     int64       `json:"line"`
	Phase    int64       `json:"phase"`     // the old object's
	NewPhase int64       `json:"new_phase"` // the new object's: another where they start apart
	Old      DiffFigures `json:"old"`
	New      DiffFigures `json:"new"`
	Verdict  string      `json:"verdict"` // same, better, worse, mixed
	Changes  []string    `json:"changes"`
}

type DiffFigures struct {
	Lines      []int64 `json:"lines"`
	Blocks128  int     `json:"blocks_128"`
	FalseLines int     `json:"false_lines"`
}

type DiffMove struct {
	Member string `json:"member"`
	Old    int64  `json:"old"`
	New    int64  `json:"new"`
}

type DiffSeparation struct {
	Line     int64    `json:"line"`
	Phase    int64    `json:"phase"`
	NewPhase int64    `json:"new_phase"`
	A        string   `json:"a"`
	B        string   `json:"b"`
	Readers  []string `json:"readers"`
	Writers  []string `json:"writers"`
	AllTrue  bool     `json:"all_true"`
}

// NewDiffDocument converts a comparison to the JSON schema.
func NewDiffDocument(r *diff.Result) DiffDocument {
	d := DiffDocument{
		Old: r.Old.Object.Layout.Name, New: r.New.Object.Layout.Name, Arch: r.New.Object.Layout.Arch,
		Regression: r.Regressed(), WorseAt: nonNil(r.WorseAt()), BetterAt: nonNil(r.Judgement.BetterAt),
		Strict: r.Judgement.Strict, Gate: []DiffChange{},
		Rows: []DiffRow{}, Moves: []DiffMove{}, Added: nonNilS(r.Added), Removed: nonNilS(r.Removed),
		OnlyOld: nonNilS(r.OnlyOld), OnlyNew: nonNilS(r.OnlyNew), Separations: []DiffSeparation{},
		FalseOld: r.FalseOld, FalseNew: r.FalseNew,
	}
	fig := func(f diff.Figures) DiffFigures {
		return DiffFigures{Lines: nonNil(f.Lines), Blocks128: f.Blocks128, FalseLines: f.FalseLines}
	}
	for _, row := range r.Rows {
		d.Rows = append(d.Rows, DiffRow{Path: row.Path, Line: row.Line, Phase: row.Phase, NewPhase: row.NewPhase, Old: fig(row.Old), New: fig(row.New),
			Verdict: row.Verdict.String(), Changes: diff.Texts(row.Changes)})
	}
	for _, c := range r.Judgement.Changes {
		d.Gate = append(d.Gate, DiffChange{Path: c.Path, What: c.What, Rate: c.Rate, Worse: c.Worse, Outweighed: c.Outweighed,
			Line: c.Line, Phase: c.Phase, NewPhase: c.NewPhase, Old: c.Old, New: c.New, Changes: diff.Texts(c.Changes)})
	}
	for _, m := range r.Moves {
		d.Moves = append(d.Moves, DiffMove(m))
	}
	for _, s := range r.Separations {
		d.Separations = append(d.Separations, DiffSeparation{Line: s.Line, Phase: s.Phase, NewPhase: s.NewPhase, A: s.A, B: s.B,
			Readers: nonNilS(s.Readers), Writers: nonNilS(s.Writers), AllTrue: s.AllTrue})
	}
	if m := r.Moved; m != nil {
		dm := &DiffMoved{OldPhases: map[string][]int64{}, NewPhases: map[string][]int64{}, Neighbours: nonNilS(m.Neighbours)}
		if m.Placed {
			oldA, newA := layoutjson.Address(m.OldAddress), layoutjson.Address(m.NewAddress)
			dm.OldAddress, dm.NewAddress = &oldA, &newA
		}
		for _, l := range m.Lines {
			key := fmt.Sprint(l)
			dm.OldPhases[key], dm.NewPhases[key] = m.OldPhase[l], m.NewPhase[l]
		}
		d.Moved = dm
	}
	return d
}

// DiffJSON writes the comparison as one indented JSON document.
func DiffJSON(w io.Writer, r *diff.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewDiffDocument(r))
}

// DiffMarkdown writes the verdict, the argument and a table of the paths
// that changed, for a pull request or a patch discussion.
func DiffMarkdown(w io.Writer, r *diff.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### `%s` → `%s` (%s)\n\n", r.Old.Object.Layout.Name, r.New.Object.Layout.Name, r.New.Object.Layout.Arch)
	fmt.Fprintf(&b, "%s\n", strings.ReplaceAll(verdictLine(r, r.WorseAt()), "\n", " "))
	if why := describeWhy(r.Explain()); len(why) > 0 {
		b.WriteString("\n")
		for _, para := range why {
			fmt.Fprintf(&b, "- %s\n", para)
		}
	}
	b.WriteString("\n| path | line size / phase | before | after | verdict |\n|---|---|---|---|---|\n")
	for _, row := range r.Rows {
		if row.Verdict == diff.Same {
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", row.Path, strings.Replace(caseLabel(diff.Case{Line: row.Line, Phase: row.Phase, NewPhase: row.NewPhase}), "/", " / ", 1),
			figuresCell(row.Old, row.Line), figuresCell(row.New, row.Line), row.Verdict.String()+": "+strings.Join(diff.Texts(row.Changes), ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
