package report

import (
	"fmt"
	"strings"

	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/structs"
)

// KernelVerdicts are what mglayout check says, beside the running
// kernel's figures (probe -kernel), of its nearest model and of the floor
// from v6.13: their analysis at 64 and 128 bytes, and the coarse reader
// that every pipe write and read goes through.
type KernelVerdicts struct {
	Models   []string
	Analysis *sharing.Analysis
	Stamp    string // the coarse reader's path
}

// NewKernelVerdicts analyses the models of a kernel result; nil when the
// release has no model.
func NewKernelVerdicts(r *probe.KernelResult) (*KernelVerdicts, error) {
	if r.Model == "" {
		return nil, nil
	}
	kv := &KernelVerdicts{Models: []string{r.Model}, Stamp: "ktime_get_coarse_real_ts64"}
	if r.Floor != "" {
		kv.Models = append(kv.Models, r.Floor)
		kv.Stamp = "ktime_get_coarse_real_ts64_mg"
	}
	var objects []*sharing.Object
	for _, name := range kv.Models {
		o, err := structs.Object(name, structs.Archs[0])
		if err != nil {
			return nil, err
		}
		objects = append(objects, o)
	}
	a, err := sharing.Analyze(objects, []int64{64, 128})
	if err != nil {
		return nil, err
	}
	kv.Analysis = a
	return kv, nil
}

// FalseSharingAt sums up the false sharing of an object at one line size,
// over its phases.
func FalseSharingAt(oa *sharing.ObjectAnalysis, line int64) string {
	var found []string
	exposed := false
	for i := range oa.Cases {
		c := &oa.Cases[i]
		if c.Line != line {
			continue
		}
		for _, p := range c.FalsePairs() {
			found = append(found, fmt.Sprintf("phase %d line %d: %s writes, %s touches other members", c.Phase, p.Line, p.Writer, p.Other))
		}
		for _, l := range c.Lines {
			if l.Exposed() && len(l.Writers) > 0 {
				exposed = true
			}
		}
	}
	var s string
	if len(found) == 0 {
		s = "no false sharing at any phase"
	} else {
		s = "FALSE SHARING at " + strings.Join(found, "; ")
	}
	if exposed {
		s += "; a line the object writes holds unknown neighbours' bytes at some phase"
	}
	return s
}
