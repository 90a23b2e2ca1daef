package structs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout/access"
)

// Paths returns the access paths of the named model for arch: the
// //mglayout:path directives of its declaration in kernel/*.go, in order,
// with member paths relative to the model's root (resolve them with
// access.Resolve against Lookup's layout). Paths with the same name in
// different models are the same kernel function touching several objects.
// The paths are copies; the caller may change them.
func Paths(name, arch string) ([]*access.Path, error) {
	byArch, err := parse()
	if err != nil {
		panic(err) // the mirrors are compiled into the binary: this cannot fail
	}
	p, ok := byArch[arch]
	if !ok {
		return nil, fmt.Errorf("the kernel models are checked for %s only, not GOARCH %q (drop -arch or use one of those)", strings.Join(Archs, ", "), arch)
	}
	for _, m := range p.models {
		if m.name != name {
			continue
		}
		out := make([]*access.Path, len(m.paths))
		for i, path := range m.paths {
			c := *path
			c.Accesses = slices.Clone(path.Accesses)
			out[i] = &c
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown model %q (the built-in models are %s)", name, strings.Join(Names(), ", "))
}
