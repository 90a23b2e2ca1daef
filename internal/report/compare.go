package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mglayout/mglayout/probe/stats"
)

// Read reads a report.json, refusing other documents and other schemas.
func Read(r io.Reader) (*Report, error) {
	var rep Report
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("not a report.json: %v", err)
	}
	if rep.Schema != Schema {
		return nil, fmt.Errorf("schema %q is not %q (write it again with this mglayout report)", rep.Schema, Schema)
	}
	if rep.Host.Info == nil {
		return nil, errors.New("the report has no host section")
	}
	if rep.Conclusions == nil {
		// Written before reports carried them: they follow from the
		// verdicts.
		rep.conclude()
	}
	return &rep, nil
}

// Machine is one report in a comparison.
type Machine struct {
	Label  string  `json:"label"` // A, B, ...
	File   string  `json:"file"`
	Report *Report `json:"-"` // its host, in the JSON
}

// MarshalJSON writes a machine by its label, file and host.
func (m Machine) MarshalJSON() ([]byte, error) {
	type plain Machine
	var host *Host
	if m.Report != nil {
		host = &m.Report.Host
	}
	return json.Marshal(struct {
		plain
		Host *Host `json:"host"`
	}{plain(m), host})
}

// Row is one change of one path at one line size, across machines.
type Row struct {
	Old    string `json:"old"`
	New    string `json:"new"`
	Path   string `json:"path"`
	Line   int64  `json:"line"`
	Static string `json:"static"`
	// Measured holds, per machine label, the comparison measured there
	// and which probe measured it; absent where it was not measured.
	Measured map[string][]Comparison `json:"measured"`
}

// Merged is the comparison of several reports.
type Merged struct {
	Machines []Machine `json:"machines"`
	Rows     []*Row    `json:"rows"`
	// Kernels compare the pipe workloads of reports from the same machine
	// on different kernels: how a kernel patch is evaluated.
	Kernels []KernelRow `json:"kernels"`
}

// KernelRow is one pipe workload on two kernels of one machine.
type KernelRow struct {
	Workload   string `json:"workload"`
	OldMachine string `json:"old_machine"` // machine labels
	NewMachine string `json:"new_machine"`
	OldRelease string `json:"old_release"`
	NewRelease string `json:"new_release"`
	Comparison
}

// Merge lines up the verdicts of several reports by change, path and line
// size.
func Merge(machines []Machine) *Merged {
	m := &Merged{Machines: machines, Rows: []*Row{}, Kernels: []KernelRow{}}
	find := func(v Verdict, path string) *Row {
		for _, r := range m.Rows {
			if r.Old == v.Old && r.New == v.New && r.Path == path && r.Line == v.Line {
				return r
			}
		}
		r := &Row{Old: v.Old, New: v.New, Path: path, Line: v.Line, Static: v.Static, Measured: map[string][]Comparison{}}
		m.Rows = append(m.Rows, r)
		return r
	}
	m.kernels()
	for _, mc := range machines {
		for _, v := range mc.Report.Verdicts {
			if len(v.Measured) == 0 {
				find(v, "")
				continue
			}
			for _, c := range v.Measured {
				r := find(v, c.Path)
				r.Measured[mc.Label] = append(r.Measured[mc.Label], c)
			}
		}
	}
	return m
}

// kernels compares the first report's pipe workloads with those of every
// later report from the same machine on another kernel.
func (m *Merged) kernels() {
	if len(m.Machines) == 0 {
		return
	}
	base := m.Machines[0]
	for _, mc := range m.Machines[1:] {
		a, b := base.Report, mc.Report
		if a.Kernel == nil || b.Kernel == nil || a.Kernel.Release == b.Kernel.Release ||
			a.Host.Info.CPUID.Brand != b.Host.Info.CPUID.Brand || a.Host.Info.GOARCH != b.Host.Info.GOARCH {
			continue
		}
		// The workloads of one pair of kernels are one family, corrected
		// for their number (Holm) as every family of comparisons is.
		var names []string
		var family []stats.Comparison
		for _, wa := range a.Kernel.Workloads {
			for _, wb := range b.Kernel.Workloads {
				if wa.Name == wb.Name {
					names = append(names, wa.Name)
					family = append(family, stats.Compare(wa.Total, wb.Total))
				}
			}
		}
		stats.Holm(family)
		for i, c := range family {
			m.Kernels = append(m.Kernels, KernelRow{Workload: names[i], OldMachine: base.Label, NewMachine: mc.Label,
				OldRelease: a.Kernel.Release, NewRelease: b.Kernel.Release,
				Comparison: newComparison(names[i], a.Kernel.Release, b.Kernel.Release, c)})
		}
	}
}

// Regressions lists the significant slowdowns of a new layout on any
// machine: a CI gate fails on them.
func (m *Merged) Regressions() []string {
	var out []string
	for _, k := range m.Kernels {
		if k.Significant && k.Delta < 0 {
			out = append(out, fmt.Sprintf("%s → %s: %s on kernel %s vs %s: %s", k.OldMachine, k.NewMachine, k.Workload, k.NewRelease, k.OldRelease, k.Text))
		}
	}
	for _, r := range m.Rows {
		for _, mc := range m.Machines {
			for _, c := range r.Measured[mc.Label] {
				if c.Significant && c.Delta < 0 {
					out = append(out, fmt.Sprintf("%s: %s → %s, %s at %d B (%s): %s", mc.Label, r.Old, r.New, r.Path, r.Line, c.Probe, c.Text))
				}
			}
		}
	}
	return out
}
