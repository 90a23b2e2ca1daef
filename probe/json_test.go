package probe

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"
)

// snakeKey is the style of every key of the JSON the probe writes, as
// report.json and layout -json write theirs.
var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// checkKeys walks a decoded JSON document and reports keys of another
// style.
func checkKeys(t *testing.T, what string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			// Map keys that are names (a writer's path name) are data.
			if !snakeKey.MatchString(k) && k != "tick" {
				t.Errorf("%s: key %q is not snake_case", what, k)
			}
			checkKeys(t, what, e)
		}
	case []any:
		for _, e := range v {
			checkKeys(t, what, e)
		}
	}
}

// TestJSONKeys checks that the results the probe writes as JSON (probe
// -json, sweep -json, probe -clock -kernel -json, and report.json's
// sections) use snake_case keys, and that a sweep carries its verdict.
func TestJSONKeys(t *testing.T) {
	paths := mustParse(t, "coarse_real seqread=seq read=timekeeper.xtime_sec")
	docs := map[string]any{
		"probe": &Result{Cases: []*Case{{Variant: "tk_core@v6.1", Path: paths[0], Samples: []float64{1e8}, Writers: map[string][]float64{"tick": {250}}}},
			Rounds: 1, CPUs: []int{0, 1}, Options: Options{Duration: time.Second}},
		"sweep": &SweepResult{Points: []*SweepPoint{{Distance: 0, Writer: []float64{1e7}, Reader: []float64{1e9}}},
			Far: &SweepPoint{Distance: 4096, Writer: []float64{2e8}, Reader: []float64{3e9}}, Rounds: 1},
		"clock":  &ClockResult{Rows: []*ClockRow{{Name: "C clock_gettime(CLOCK_REALTIME)", Samples: []float64{20}}}, Rounds: 1},
		"kernel": &KernelResult{Release: "6.1.0", Workloads: []*KernelWorkload{{Name: "pipe1_threads", Total: []float64{1e5}, Worker: [][]float64{{5e4}}}}},
	}
	for what, doc := range docs {
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		checkKeys(t, what, v)
		if what == "sweep" {
			if _, ok := v.(map[string]any)["interference"]; !ok {
				t.Errorf("sweep JSON has no interference: %s", data)
			}
		}
		if what == "probe" {
			if p := v.(map[string]any)["cases"].([]any)[0].(map[string]any)["path"]; p != "coarse_real" {
				t.Errorf("a case's path is %v, want its name: %s", p, data)
			}
		}
	}
}
