// Package layoutjson is the `layout -json` document: layouts with their
// placements and access paths, written by layout -format json and inside
// report.json, and read back by check, diff, probe and the report's
// renderers. It sits below the operands' resolver and the renderers, which
// both use it.
package layoutjson
