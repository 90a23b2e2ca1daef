package host

import "path/filepath"

// readTopology reads the online list and cpu*/topology under cpuDir. A CPU
// without a topology directory is offline and skipped. Source is left
// empty when no CPU has one.
func readTopology(cpuDir string, ids []int, note func(string, ...any)) (Topology, error) {
	var t Topology
	online, ok, err := readCPUList(filepath.Join(cpuDir, "online"))
	if err != nil {
		return t, err
	}
	if !ok {
		note("sysfs: no %s", filepath.Join(cpuDir, "online"))
	}
	t.Online = online
	for _, id := range ids {
		cpu, ok, err := readCPUTopology(cpuDir, id)
		if err != nil {
			return t, err
		}
		if ok {
			t.CPUs = append(t.CPUs, cpu)
		}
	}
	if len(t.CPUs) == 0 {
		note("sysfs: no topology under %s", filepath.Join(cpuDir, "cpu*", "topology"))
		return t, nil
	}
	t.Source = SourceSysfs
	t.count()
	return t, nil
}

// readCPUTopology reads the topology directory of CPU id; ok is false when
// it has none.
func readCPUTopology(cpuDir string, id int) (cpu CPU, ok bool, err error) {
	pkg, ok, err := readInt(cpuPath(cpuDir, id, "topology", "physical_package_id"))
	if !ok || err != nil {
		return cpu, false, err
	}
	core, _, err := readInt(cpuPath(cpuDir, id, "topology", "core_id"))
	if err != nil {
		return cpu, false, err
	}
	// Only architectures with dies (x86, s390) have die_id.
	die, hasDie, err := readInt(cpuPath(cpuDir, id, "topology", "die_id"))
	if err != nil {
		return cpu, false, err
	}
	if !hasDie {
		die = -1
	}
	return CPU{ID: id, Package: int(pkg), Die: int(die), Core: int(core)}, true, nil
}

// count sets the package, die, core and thread counts from t.CPUs. Core
// and die IDs are only unique within their package (and die), so they are
// counted as pairs and triples.
func (t *Topology) count() {
	type die struct{ pkg, die int }
	type core struct{ pkg, die, core int }
	packages := make(map[int]bool)
	dies := make(map[die]bool)
	cores := make(map[core]bool)
	dieKnown := true
	for _, c := range t.CPUs {
		packages[c.Package] = true
		dies[die{c.Package, c.Die}] = true
		cores[core{c.Package, c.Die, c.Core}] = true
		dieKnown = dieKnown && c.Die >= 0
	}
	t.Packages, t.Cores, t.Threads = len(packages), len(cores), len(t.CPUs)
	if dieKnown {
		t.Dies = len(dies)
	}
}
