package structs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
)

// A scenario is a kernel version's timekeeping state as the objects its
// paths touch (kernel_truth.md §2), each under the name of the variable
// in kernel/time/timekeeping.c that holds it, so that versions match by
// role: tk_core is its own anonymous struct before v6.13 and a struct
// tk_data after. Before v6.13 the tick also writes shadow_timekeeper and
// takes timekeeper_lock, separate objects; from v6.13 both are members of
// tk_data, and mg_floor is an object of its own where the floor paths run.
var scenarios = []struct {
	name, doc string
	parts     [][2]string // role, model
}{
	{"tk@v6.1", "The timekeeping objects of v5.10 through v6.12: tk_core, shadow_timekeeper and timekeeper_lock.",
		[][2]string{{"tk_core", "tk_core@v6.1"}, {"shadow_timekeeper", "shadow_timekeeper@v6.1"}, {"timekeeper_lock", "timekeeper_lock@v6.1"}}},
	{"tk@v6.1+guohui", "The objects of tk@v6.1 with Guo Hui's 2023 padding in struct timekeeper, which the shadow has too.",
		[][2]string{{"tk_core", "tk_core@v6.1+guohui"}, {"shadow_timekeeper", "shadow_timekeeper@v6.1+guohui"}, {"timekeeper_lock", "timekeeper_lock@v6.1"}}},
	{"tk@v6.13", "The timekeeping objects of v6.13 and v6.14: tk_core (struct tk_data, holding the shadow and the lock) and mg_floor.",
		[][2]string{{"tk_core", "tk_data@v6.13"}, {"mg_floor", "mg_floor@v6.13"}}},
	{"tk@v6.15", "The timekeeping objects of v6.15 and v6.16: tk_core (struct tk_data) and mg_floor.",
		[][2]string{{"tk_core", "tk_data@v6.15"}, {"mg_floor", "mg_floor@v6.13"}}},
	{"tk@v6.17", "The timekeeping objects of v6.17 through v7.0: tk_core (timekeeper_data[TIMEKEEPER_CORE]) and mg_floor.",
		[][2]string{{"tk_core", "tk_data@v6.17"}, {"mg_floor", "mg_floor@v6.13"}}},
	{"tk@v7.1", "The timekeeping objects of v7.1-rc1: tk_core (timekeeper_data[TIMEKEEPER_CORE]) and mg_floor.",
		[][2]string{{"tk_core", "tk_data@v7.1"}, {"mg_floor", "mg_floor@v6.13"}}},
}

// ScenarioNames returns the names of the built-in scenarios.
func ScenarioNames() []string {
	var out []string
	for _, sc := range scenarios {
		out = append(out, sc.name)
	}
	return out
}

// IsScenario reports whether a name is a built-in scenario's.
func IsScenario(name string) bool { return slices.Contains(ScenarioNames(), name) }

// Object returns a built-in model or scenario for arch as an object: its
// layout, its access paths, and its placement, which the kernel declares
// (____cacheline_aligned, or the alignment of its members).
func Object(name, arch string) (*sharing.Object, error) {
	if IsScenario(name) {
		return scenario(name, arch)
	}
	s, err := Lookup(name, arch)
	if err != nil {
		return nil, err
	}
	paths, err := Paths(name, arch)
	if err != nil {
		return nil, err
	}
	return &sharing.Object{Layout: s, Paths: paths, Placement: placement.For(s, true)}, nil
}

// scenario returns a built-in scenario for arch as one object
// (sharing.Compose).
func scenario(name, arch string) (*sharing.Object, error) {
	for _, sc := range scenarios {
		if sc.name != name {
			continue
		}
		var parts []sharing.Part
		var doc []string
		for _, rm := range sc.parts {
			o, err := Object(rm[1], arch)
			if err != nil {
				return nil, err
			}
			parts = append(parts, sharing.Part{Role: rm[0], Object: o})
			doc = append(doc, rm[0]+" is "+rm[1])
		}
		return sharing.Compose(name, sc.doc+" "+strings.Join(doc, ", ")+"; each object on lines of its own.", parts)
	}
	return nil, fmt.Errorf("unknown scenario %q (the built-in scenarios are %s)", name, strings.Join(ScenarioNames(), ", "))
}
