package report

import (
	"strings"

	"github.com/mglayout/mglayout/layout/sharing"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/structs"
)

// KernelScenario is the built-in scenario: the timekeeper core as of v6.1,
// with the 2023 padding, after the v6.13 reorder with the multigrain
// floor, and every later step of its history that diff judges (v6.15,
// v6.17, v7.1). The probes measure the realtime readers against the tick
// (at its rate, and unthrottled to show how sensitive each layout is),
// the floor's coarse reader against the floor's cmpxchg writer, and each
// step from v6.1 on, its readers against the tick at its rate.
func KernelScenario() (Scenario, error) {
	obj := func(name string) (*sharing.Object, error) { return structs.Object(name, "amd64") }
	var sc Scenario
	byName := map[string]*sharing.Object{}
	history := []string{"tk_data@v6.13", "tk_data@v6.15", "tk_data@v6.17", "tk_data@v7.1"}
	for _, name := range append([]string{"tk_core@v6.1", "tk_core@v6.1+guohui", history[0], "mg_floor@v6.13"}, history[1:]...) {
		o, err := obj(name)
		if err != nil {
			return sc, err
		}
		byName[name] = o
		sc.Objects = append(sc.Objects, o)
	}
	v61, guohui, v613, floor := byName["tk_core@v6.1"], byName["tk_core@v6.1+guohui"], byName["tk_data@v6.13"], byName["mg_floor@v6.13"]
	sc.Diffs = [][2]*sharing.Object{{v61, guohui}, {v61, v613}}
	padding := []probe.Variant{{Name: "tk_core@v6.1", Objects: []*sharing.Object{v61}}, {Name: "tk_core@v6.1+guohui", Objects: []*sharing.Object{guohui}}}
	readers := []string{"ktime_get_coarse_real_ts64", "ktime_get_real_ts64"}
	sc.Probes = []ProbeSpec{
		{Title: "the 2023 padding, tick at its rate", Variants: padding, Paths: readers, Writers: []string{"tick"}},
		{Title: "the 2023 padding, tick unthrottled", Variants: padding, Paths: readers, Writers: []string{"tick"}, Stress: true},
		{Title: "the multigrain floor", Variants: []probe.Variant{{Name: "tk_data@v6.13,mg_floor@v6.13", Objects: []*sharing.Object{v613, floor}}},
			Paths: []string{"ktime_get_coarse_real_ts64_mg"}, Writers: []string{"ktime_get_real_ts64_mg"}},
	}
	// The reorder and each later step, probed as a pair of its own, the
	// later steps diffed too.
	steps := [][2]string{{"tk_core@v6.1", history[0]}}
	for i := 1; i < len(history); i++ {
		steps = append(steps, [2]string{history[i-1], history[i]})
		sc.Diffs = append(sc.Diffs, [2]*sharing.Object{byName[history[i-1]], byName[history[i]]})
	}
	for _, st := range steps {
		old, new := byName[st[0]], byName[st[1]]
		sc.Probes = append(sc.Probes, ProbeSpec{Title: st[0] + " to " + st[1] + ", tick at its rate",
			Variants: []probe.Variant{{Name: st[0], Objects: []*sharing.Object{old}}, {Name: st[1], Objects: []*sharing.Object{new}}},
			Paths:    readers, Writers: []string{"tick"}})
	}
	return sc, nil
}

// VariantsScenario is the scenario of layouts named on a command line:
// each variant probed against the others, and the first one's layout
// diffed against each other single-object variant.
func VariantsScenario(variants []probe.Variant) Scenario {
	var sc Scenario
	var names []string
	for _, v := range variants {
		sc.Objects = append(sc.Objects, v.Objects...)
		names = append(names, v.Name)
	}
	for _, v := range variants[1:] {
		if len(variants[0].Objects) == 1 && len(v.Objects) == 1 {
			sc.Diffs = append(sc.Diffs, [2]*sharing.Object{variants[0].Objects[0], v.Objects[0]})
		}
	}
	sc.Probes = []ProbeSpec{{Title: strings.Join(names, " vs "), Variants: variants}}
	return sc
}
