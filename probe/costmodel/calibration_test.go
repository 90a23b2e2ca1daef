package costmodel

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/probe/stats"
)

func calibration() *Calibration {
	return &Calibration{Host: "test CPU", Line: 64, CPUs: [2]int{0, 1}, Rounds: 10, Duration: "20ms", Curves: []*Curve{
		{Writer: "add", Reader: "read", Rates: map[Relation]Rates{
			SameLine: {Reader: 10e6, Writer: 40e6}, AdjacentLine: {Reader: 20e6, Writer: 50e6}, Apart: {Reader: 40e6, Writer: 60e6}}},
	}}
}

// TestPredict checks a prediction against the curve's own rates, both
// ways, and the refusal of kinds the calibration did not measure.
func TestPredict(t *testing.T) {
	c := calibration()
	k := Kinds{Writer: access.Add, Reader: access.Read}
	got, err := c.Predict(k, SameLine, Apart)
	if err != nil || got.Reader != 3 || got.Writer != 0.5 {
		t.Errorf("same line → apart = %+v, %v; want the reader +300%%, the writer +50%%", got, err)
	}
	got, _ = c.Predict(k, Apart, SameLine)
	if got.Reader != -0.75 {
		t.Errorf("apart → same line: the reader %+v, want -75%%", got.Reader)
	}
	if got, _ := c.Predict(k, AdjacentLine, AdjacentLine); got.Reader != 0 || got.Writer != 0 {
		t.Errorf("no move predicts %+v, want no change", got)
	}
	if _, err := c.Predict(Kinds{Writer: access.Write, Reader: access.Read}, SameLine, Apart); err == nil || !strings.Contains(err.Error(), "uncalibrated") {
		t.Errorf("kinds not calibrated: %v, want an error saying uncalibrated", err)
	}
}

// TestSaveLoad checks that a saved calibration reads back as it was.
func TestSaveLoad(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cal.json")
	c := calibration()
	if err := c.Save(file); err != nil {
		t.Fatal(err)
	}
	back, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if back.Host != c.Host || back.Line != c.Line || back.Curve(Kinds{access.Add, access.Read}).Rates[Apart] != c.Curves[0].Rates[Apart] {
		t.Errorf("read back %+v, want %+v", back, c)
	}
}

// TestLoadErrors checks that a file that is not a calibration is refused
// with its name, what is wrong and how to make one.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, text, want string }{
		{"empty.json", "", "not a calibration"},
		{"sweep.json", `{"points": [], "far": {}}`, "line 0 is not a power of two"},
		{"nocurves.json", `{"line": 64}`, "no curves"},
		{"op.json", `{"line": 64, "curves": [{"writer_op": "xor", "reader_op": "read"}]}`, `"xor" is not an operation`},
		{"rates.json", `{"line": 64, "curves": [{"writer_op": "add", "reader_op": "read", "rates": {"same line": {"reader": 1, "writer": 1}}}]}`, `no rates between 1 and 10¹² per second at "adjacent line"`},
		{"tiny.json", `{"line": 64, "curves": [{"writer_op": "add", "reader_op": "read", "rates": {"same line": {"reader": 1e-320, "writer": 1}, "adjacent line": {"reader": 1, "writer": 1}, "apart": {"reader": 1e300, "writer": 1}}}]}`, "no rates between 1 and"},
	} {
		file := filepath.Join(dir, tc.name)
		if err := os.WriteFile(file, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(file)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.name) || !strings.Contains(err.Error(), "-save-calibration") {
			t.Errorf("Load(%s) = %v, want an error naming it, saying %q and how to write one", tc.name, err, tc.want)
		}
	}
}

// FuzzParse checks that whatever Parse accepts predicts finite changes
// for each of its curves.
func FuzzParse(f *testing.F) {
	b, _ := os.ReadFile("testdata/calibration.json")
	f.Add(b)
	f.Add([]byte(`{"line": 64, "curves": []}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b)
		if err != nil {
			return
		}
		for _, cv := range c.Curves {
			w, _ := access.ParseOp(cv.Writer)
			r, _ := access.ParseOp(cv.Reader)
			for _, from := range Relations {
				for _, to := range Relations {
					ch, err := c.Predict(Kinds{w, r}, from, to)
					if err != nil || math.IsNaN(ch.Reader) || math.IsNaN(ch.Writer) || math.IsInf(ch.Reader, 0) || math.IsInf(ch.Writer, 0) {
						t.Fatalf("curve %s/%s %s → %s: %+v, %v", cv.Writer, cv.Reader, from, to, ch, err)
					}
				}
			}
		}
	})
}

// TestAgrees checks the rule a prediction is held to: within 25 % of the
// measured change, its MDE, or the noise floor of a shared host.
func TestAgrees(t *testing.T) {
	for _, tc := range []struct {
		predicted, delta, mde float64
		want                  bool
	}{
		{1.95, 1.92, 0.1, true},   // the fresh pair on this VM
		{1.95, 3.9, 0.1, false},   // twice the prediction
		{1.95, 1.5, 0.5, true},    // within the MDE
		{0, -0.044, 0.01, true},   // apart: a few per cent is no change
		{0, 0.3, 0.1, false},      // apart, yet 30 % faster
		{1.95, 0.02, 0.03, false}, // shared, yet no change
	} {
		c := stats.Comparison{Delta: tc.delta, MDE: tc.mde}
		if got := Agrees(tc.predicted, c); got != tc.want {
			t.Errorf("Agrees(%v, delta %v, MDE %v) = %v, want %v", tc.predicted, tc.delta, tc.mde, got, tc.want)
		}
	}
}
