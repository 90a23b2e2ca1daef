// Package vet runs the falsesharing analyzer standalone, as mglayout vet
// does: it loads the packages once per GOARCH checked, runs the analyzer
// over them and their dependencies (for the facts), keeps each finding
// once, and writes the findings as text, JSON or SARIF, or applies their
// suggested fixes.
package vet
