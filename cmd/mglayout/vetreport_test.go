package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/internal/vet"
	"github.com/mglayout/mglayout/layout/falsesharing"
)

// vetRun runs mglayout vet in-process and returns its stdout, failing on
// an unexpected exit status or anything on stderr.
func vetRun(t *testing.T, status int, args string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if got := run(strings.Fields("vet "+args), &stdout, &stderr); got != status {
		t.Fatalf("mglayout vet %s: exit status %d, want %d; stderr:\n%s", args, got, status, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("mglayout vet %s wrote to stderr:\n%s", args, stderr.String())
	}
	return stdout.Bytes()
}

// TestVetGolden pins the whole JSON and SARIF output for the sharded
// counter in testdata/vet/shards (rewritten by go test -update).
func TestVetGolden(t *testing.T) {
	for _, tc := range []struct{ name, format string }{
		{"vet_shards.json", "json"},
		{"vet_shards.sarif", "sarif"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := vetRun(t, 1, "-format "+tc.format+" -falsesharing.arch amd64 ./testdata/vet/shards")
			golden(t, filepath.Join("testdata", "golden", tc.name), out)
		})
	}
}

func TestVetSARIF(t *testing.T) {
	log := checkSARIF(t, vetRun(t, 1, "-format sarif ./testdata/vet/shards ./testdata/vet/clean"))
	results := log["runs"].([]any)[0].(map[string]any)["results"].([]any)
	if len(results) != 1 {
		t.Fatalf("%d results, want 1 (FS1 on shards)", len(results))
	}
	res := results[0].(map[string]any)
	loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	uri := loc["artifactLocation"].(map[string]any)["uri"]
	line := loc["region"].(map[string]any)["startLine"]
	// The URI is relative to the repository's root, not to the working
	// directory (cmd/mglayout) or the module.
	if res["ruleId"] != "FS1" || uri != "cmd/mglayout/testdata/vet/shards/shards.go" || line != 8.0 {
		t.Errorf("result %v at %v:%v, want FS1 at cmd/mglayout/testdata/vet/shards/shards.go:8", res["ruleId"], uri, line)
	}
	if len(res["fixes"].([]any)) == 0 {
		t.Errorf("the FS1 result has no fix")
	}

	// Nothing found is a run with no results, not one without "results".
	out := vetRun(t, 0, "-format sarif ./testdata/vet/clean")
	checkSARIF(t, out)
	if !bytes.Contains(out, []byte(`"results": []`)) {
		t.Errorf("clean SARIF has no empty results:\n%s", out)
	}
}

func TestVetJSON(t *testing.T) {
	var findings []vet.JSONFinding
	if err := json.Unmarshal(vetRun(t, 1, "-format json ./testdata/vet/shards"), &findings); err != nil {
		t.Fatal(err)
	}
	if len(findings) != 1 {
		t.Fatalf("%d findings, want 1: %+v", len(findings), findings)
	}
	f := findings[0]
	if f.Rule != "FS1" || f.Name != "shard-stride" || f.File != "testdata/vet/shards/shards.go" || f.Line != 8 ||
		f.URL != falsesharing.ShardStride.URL() || !strings.HasSuffix(f.Message, " (FS1, proven)") {
		t.Errorf("finding %+v, want FS1 shard-stride at testdata/vet/shards/shards.go:8 with its URL", f)
	}
	// The finding as data: what the message says, in fields.
	if d := f.Finding; d == nil || d.Tier != falsesharing.Proven || d.Object != "Counter" || d.Member != "shards" ||
		len(d.Users) != 1 || d.Users[0].Op != "(*Counter).Add" || len(d.Holds) == 0 || len(f.Lines) == 0 || len(f.GOARCHes) == 0 {
		t.Errorf("finding data %+v (lines %v, GOARCHes %v), want proven, Counter.shards, its elements written by (*Counter).Add, with where it holds", d, f.Lines, f.GOARCHes)
	}
	if len(f.Fixes) == 0 || len(f.Fixes[0].Edits) == 0 || f.Fixes[0].Edits[0].File != f.File {
		t.Errorf("finding has no fix editing its file: %+v", f.Fixes)
	}

	if out := vetRun(t, 0, "-format json ./testdata/vet/clean"); string(out) != "[]\n" {
		t.Errorf("clean JSON = %q, want []", out)
	}
}

// checkSARIF checks a SARIF log for what the 2.1.0 schema and GitHub code
// scanning require of it, by the keys the specification names, and
// returns it decoded.
func checkSARIF(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var log map[string]any
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("SARIF does not parse: %v", err)
	}
	errorf := func(format string, args ...any) {
		t.Helper()
		t.Errorf("SARIF: "+format, args...)
	}
	if log["$schema"] != "https://json.schemastore.org/sarif-2.1.0.json" || log["version"] != "2.1.0" {
		errorf("$schema %v, version %v", log["$schema"], log["version"])
	}
	runs, _ := log["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("SARIF: %d runs, want 1", len(runs))
	}
	run := obj(runs[0])
	driver := obj(obj(run["tool"])["driver"])
	if driver["name"] != "mglayout" || driver["informationUri"] != falsesharing.Home {
		errorf("driver %v at %v", driver["name"], driver["informationUri"])
	}
	rules, _ := driver["rules"].([]any)
	if len(rules) != len(falsesharing.Rules) {
		errorf("%d rules, want %d", len(rules), len(falsesharing.Rules))
	}
	var ids []string
	for i, r := range rules {
		rule := obj(r)
		ids = append(ids, str(rule["id"]))
		want := falsesharing.Rules[min(i, len(falsesharing.Rules)-1)]
		if rule["id"] != want.ID || rule["name"] != want.Name || rule["helpUri"] != want.URL() ||
			str(obj(rule["shortDescription"])["text"]) != want.Summary || str(obj(rule["fullDescription"])["text"]) != want.Doc ||
			str(obj(rule["help"])["text"]) == "" {
			errorf("rules[%d] = %v, want %s %s with its summary, doc, help and URL", i, rule, want.ID, want.Name)
		}
	}
	results, ok := run["results"].([]any)
	if !ok {
		t.Fatalf("SARIF: results is %v, want an array", run["results"])
	}
	for i, r := range results {
		res := obj(r)
		id := str(res["ruleId"])
		if idx, ok := res["ruleIndex"].(float64); ok && (int(idx) >= len(ids) || ids[int(idx)] != id) {
			errorf("results[%d]: ruleIndex %v is not rule %s", i, idx, id)
		}
		if id == "" || !strings.Contains("none note warning error", str(res["level"])) || str(obj(res["message"])["text"]) == "" {
			errorf("results[%d] = %v: want ruleId, level and message.text", i, res)
		}
		locs, _ := res["locations"].([]any)
		if len(locs) == 0 {
			errorf("results[%d] has no locations", i)
			continue
		}
		phys := obj(obj(locs[0])["physicalLocation"])
		checkArtifact(t, fmt.Sprintf("results[%d]", i), obj(phys["artifactLocation"]))
		checkRegion(t, fmt.Sprintf("results[%d]", i), obj(phys["region"]))
		fixes, _ := res["fixes"].([]any)
		for j, f := range fixes {
			changes, _ := obj(f)["artifactChanges"].([]any)
			if len(changes) == 0 {
				errorf("results[%d].fixes[%d] has no artifactChanges", i, j)
			}
			for _, c := range changes {
				checkArtifact(t, fmt.Sprintf("results[%d].fixes[%d]", i, j), obj(obj(c)["artifactLocation"]))
				reps, _ := obj(c)["replacements"].([]any)
				if len(reps) == 0 {
					errorf("results[%d].fixes[%d] has no replacements", i, j)
				}
				for _, rep := range reps {
					checkRegion(t, fmt.Sprintf("results[%d].fixes[%d]", i, j), obj(obj(rep)["deletedRegion"]))
				}
			}
		}
	}
	return log
}

// checkArtifact checks that a file is named relative to the repository
// root, as code scanning wants it.
func checkArtifact(t *testing.T, where string, loc map[string]any) {
	t.Helper()
	uri := str(loc["uri"])
	u, err := url.Parse(uri)
	if err != nil || uri == "" || u.IsAbs() || strings.HasPrefix(uri, "/") || strings.Contains(uri, `\`) || loc["uriBaseId"] != vet.SrcRoot {
		t.Errorf("SARIF %s: artifactLocation %v, want a relative URI with forward slashes based on %s", where, loc, vet.SrcRoot)
	}
}

func checkRegion(t *testing.T, where string, r map[string]any) {
	t.Helper()
	n := func(k string) float64 { v, _ := r[k].(float64); return v }
	if n("startLine") < 1 || n("startColumn") < 1 || n("endLine") < n("startLine") ||
		n("endLine") == n("startLine") && n("endColumn") < n("startColumn") {
		t.Errorf("SARIF %s: region %v, want 1-based start and end, end not before start", where, r)
	}
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }
func str(v any) string         { s, _ := v.(string); return s }
