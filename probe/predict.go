package probe

import (
	"fmt"
	"slices"

	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Prediction is what the static analysis says a measured path will see:
// at the line size measured and at the phase the probe places each
// object at.
type Prediction struct {
	Variant, Path string
	Lines         int      // lines the path touches, over the variant's objects
	Shared        []string // "line 0 with tick (true, 250/s)", prefixed with the object's name where the variant has several
	HotSharing    bool     // a writer running as fast as it can shares a line with the path
}

// Predictions are a run's predictions, per variant and path, in the
// order the variants and their paths come.
type Predictions []*Prediction

// Of returns the prediction for a path in a variant, or nil.
func (ps Predictions) Of(variant, path string) *Prediction {
	for _, p := range ps {
		if p.Variant == variant && p.Path == path {
			return p
		}
	}
	return nil
}

// Predict runs the sharing analysis of every variant at the line size
// measured and, for each object, at the phase the probe places it at
// (Options.Phase, or the object's first reachable one), and says per path
// what it predicts. The same prediction serves the probe's output and
// the report.
func Predict(variants []Variant, o Options) (Predictions, error) {
	var out Predictions
	for _, v := range variants {
		a, err := sharing.Analyze(v.Objects, []int64{o.Line})
		if err != nil {
			return nil, err
		}
		for i := range a.Objects {
			oa := &a.Objects[i]
			phase, err := phaseFor(oa.Object, o)
			if err != nil {
				return nil, err
			}
			ci := slices.IndexFunc(oa.Cases, func(c sharing.Case) bool { return c.Phase == phase })
			if ci < 0 {
				continue
			}
			c := &oa.Cases[ci]
			for _, f := range c.Paths {
				p := out.Of(v.Name, f.Path.Name)
				if p == nil {
					p = &Prediction{Variant: v.Name, Path: f.Path.Name, Shared: []string{}}
					out = append(out, p)
				}
				p.Lines += len(f.Lines)
				for _, ls := range c.Lines {
					for _, pair := range ls.Pairs {
						if pair.Other != f.Path.Name || pair.Writer == f.Path.Name {
							continue
						}
						w := pathNamed(oa.Object, pair.Writer)
						kind := "false"
						if pair.True {
							kind = "true"
						}
						rate := w.RateString()
						if o.Stress {
							rate = "unthrottled"
						}
						where := ""
						if len(v.Objects) > 1 {
							where = oa.Object.Layout.Name + " "
						}
						p.Shared = append(p.Shared, fmt.Sprintf("%sline %d with %s (%s, %s)", where, ls.Index, pair.Writer, kind, rate))
						if w.Rate == 0 || o.Stress {
							p.HotSharing = true
						}
					}
				}
			}
		}
	}
	return out, nil
}

func pathNamed(o *sharing.Object, name string) *access.Path {
	i := slices.IndexFunc(o.Paths, func(p *access.Path) bool { return p.Name == name })
	return o.Paths[i]
}
