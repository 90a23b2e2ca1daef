// Package broken does not type-check: loading it must fail with one line
// that names the package.
package broken

type T struct {
	a int
	b undefinedType
}
