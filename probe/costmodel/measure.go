package costmodel

import (
	"context"
	"fmt"
	"runtime"

	"github.com/klauspost/cpuid/v2"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/stats"
)

// Measure calibrates this host for each pair of kinds: a writer and a
// reader on two pinned CPUs, each doing its kind to a word of its own,
// the words at each relation (8 bytes, a line, 4096 bytes apart from a
// page's start), all interleaved in one probe run of o's rounds, run
// length, CPUs and host line.
func Measure(ctx context.Context, kinds []Kinds, o probe.Options) (*Calibration, error) {
	if o.HostLine == 0 {
		return nil, fmt.Errorf("costmodel: no host line size")
	}
	opt := o
	opt.Line, opt.Phase, opt.Emulate, opt.Spacing = o.HostLine, 0, 0, 0
	opt.Paths, opt.Writers = []string{"reader"}, []string{"writer"}
	var variants []probe.Variant
	for _, k := range kinds {
		for _, r := range Relations {
			obj, err := twoWords(k, distance(r, o.HostLine))
			if err != nil {
				return nil, err
			}
			variants = append(variants, probe.Variant{Name: variantName(k, r), Objects: []*sharing.Object{obj}})
		}
	}
	res, err := probe.Run(ctx, variants, opt)
	if err != nil {
		return nil, err
	}
	if res.Interrupted || res.Rounds == 0 {
		return nil, fmt.Errorf("the calibration was interrupted after %d rounds", res.Rounds)
	}
	c := &Calibration{Host: cpuid.CPU.BrandName, Line: o.HostLine, Rounds: res.Rounds, Duration: o.Duration.String()}
	copy(c.CPUs[:], res.CPUs)
	var family []stats.Comparison
	for _, k := range kinds {
		cv := &Curve{Writer: k.Writer.String(), Reader: k.Reader.String(), Rates: map[Relation]Rates{}}
		samples := map[Relation][]float64{}
		for _, r := range Relations {
			cs := res.Find(variantName(k, r), "reader", false)
			if cs == nil {
				return nil, fmt.Errorf("the calibration measured no reader at %s for %s", r, k)
			}
			samples[r] = cs.Samples
			cv.Rates[r] = Rates{Reader: stats.Summarize(cs.Samples).Median, Writer: stats.Summarize(cs.Writers["writer"]).Median}
		}
		c.Curves = append(c.Curves, cv)
		family = append(family, stats.Compare(samples[Apart], samples[SameLine]))
	}
	stats.Holm(family)
	for i, cv := range c.Curves {
		cv.P = family[i].P
		cv.Interferes = family[i].Significant() && family[i].Delta <= -noiseFloor
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("the calibration measured nothing to predict from: %v", err)
	}
	return c, nil
}

func variantName(k Kinds, r Relation) string { return k.String() + " " + string(r) }

// twoWords is an object of two 8-byte words, the writer's at 0 and the
// reader's d bytes on, with one path each.
func twoWords(k Kinds, d int64) (*sharing.Object, error) {
	s := &layout.Struct{Name: "calibration", Source: layout.SourceGo, Arch: runtime.GOARCH, Size: d + 8, Align: 8, Fields: []layout.Field{
		{Path: "w", Name: "w", Type: "uint64", Offset: 0, Size: 8, Align: 8, Parent: -1},
		{Path: "r", Name: "r", Type: "uint64", Offset: d, Size: 8, Align: 8, Parent: -1},
	}}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &sharing.Object{Layout: s, Paths: []*access.Path{
		{Name: "writer", CPUs: 1, Rate: access.Hot, Accesses: []access.Access{{Op: k.Writer, Member: "w"}}},
		{Name: "reader", CPUs: 1, Rate: access.Hot, Accesses: []access.Access{{Op: k.Reader, Member: "r"}}},
	}}, nil
}
