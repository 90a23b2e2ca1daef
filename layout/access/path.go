package access

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Op is what a path does to a member.
type Op uint8

const (
	Read     Op = iota // a plain or atomic load
	Write              // a store
	Add                // an atomic read-modify-write add
	CAS                // an atomic compare-and-swap
	SeqRead            // a seqlock read section's loads of the sequence counter
	SeqWrite           // a seqlock write section's increments of the sequence counter
)

var opNames = [...]string{"read", "write", "add", "cas", "seqread", "seqwrite"}

func (op Op) String() string { return opNames[op] }

// Writes reports whether the operation stores into the member, so that
// other CPUs' copies of its line are invalidated.
func (op Op) Writes() bool { return op == Write || op == Add || op == CAS || op == SeqWrite }

// ParseOp parses an operation name.
func ParseOp(s string) (Op, bool) {
	for i, name := range opNames {
		if name == s {
			return Op(i), true
		}
	}
	return 0, false
}

// Access is one operation on one member.
type Access struct {
	Op     Op
	Member string
}

// AllCPUs is the CPUs value of a path that runs on every CPU.
const AllCPUs = 0

// Hot is the Rate of a path that runs as fast as it can.
const Hot = 0

// Path is a named sequence of accesses run concurrently.
type Path struct {
	Name     string
	CPUs     int     // how many CPUs run it at once; AllCPUs for every CPU
	Rate     float64 // runs per second on each CPU; Hot for as fast as possible
	Accesses []Access
	// Doc says where the path comes from: the kernel function and
	// version, or the directive's position.
	Doc string
	// Pos is the file:line of the directive that declared the path, for
	// error messages; empty for inferred paths.
	Pos string
	// Inferred is set for paths that mglayout guessed from the code
	// (atomic fields, mutexes) rather than read from a directive.
	Inferred bool
}

// Weight is a path's accesses per second across all its CPUs, for ranking:
// a hot path counts as 10⁹ per second per CPU (about one access per
// nanosecond), and "all" CPUs as many as cpus.
func (p *Path) Weight(cpus int) float64 {
	n := p.CPUs
	if n == AllCPUs {
		n = max(cpus, 1)
	}
	rate := p.Rate
	if rate == Hot {
		rate = 1e9
	}
	return rate * float64(n)
}

// Contended reports whether several CPUs run the path at once, so that it
// shares its own lines with itself.
func (p *Path) Contended() bool { return p.CPUs != 1 }

// Writes reports whether the path stores anywhere.
func (p *Path) Writes() bool {
	for _, a := range p.Accesses {
		if a.Op.Writes() {
			return true
		}
	}
	return false
}

// RateString spells the rate as the grammar does.
func (p *Path) RateString() string {
	if p.Rate == Hot {
		return "hot"
	}
	return strconv.FormatFloat(p.Rate, 'f', -1, 64) + "/s"
}

// CPUsString spells the CPU count as the grammar does.
func (p *Path) CPUsString() string {
	if p.CPUs == AllCPUs {
		return "all"
	}
	return strconv.Itoa(p.CPUs)
}

// String returns the path in the textual form that Parse reads.
func (p *Path) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s cpus=%s rate=%s", p.Name, p.CPUsString(), p.RateString())
	for i := 0; i < len(p.Accesses); {
		op := p.Accesses[i].Op
		var members []string
		for ; i < len(p.Accesses) && p.Accesses[i].Op == op; i++ {
			members = append(members, p.Accesses[i].Member)
		}
		fmt.Fprintf(&b, " %s=%s", op, strings.Join(members, ","))
	}
	return b.String()
}

// Syntax is the grammar, for error messages.
const Syntax = "NAME [cpus=all|N] [rate=hot|N/s] OP=member[,member...] ... with OP one of read, write, add, cas, seqread, seqwrite"

// Parse reads a path in its textual form. Errors name the offending word
// and give the grammar.
func Parse(spec string) (*Path, error) {
	words := strings.Fields(spec)
	if len(words) == 0 {
		return nil, fmt.Errorf("empty path (want %s)", Syntax)
	}
	p := &Path{Name: words[0], CPUs: AllCPUs, Rate: Hot}
	if strings.Contains(p.Name, "=") {
		return nil, fmt.Errorf("path %q has no name (want %s)", spec, Syntax)
	}
	for _, w := range words[1:] {
		key, value, ok := strings.Cut(w, "=")
		if !ok || value == "" {
			return nil, fmt.Errorf("path %s: %q is not KEY=VALUE (want %s)", p.Name, w, Syntax)
		}
		switch key {
		case "cpus":
			if value == "all" {
				p.CPUs = AllCPUs
				continue
			}
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("path %s: cpus=%s is not \"all\" or a positive number", p.Name, value)
			}
			p.CPUs = n
		case "rate":
			r, err := parseRate(value)
			if err != nil {
				return nil, fmt.Errorf("path %s: %v", p.Name, err)
			}
			p.Rate = r
		default:
			op, ok := ParseOp(key)
			if !ok {
				return nil, fmt.Errorf("path %s: unknown operation %q (want %s)", p.Name, key, Syntax)
			}
			for _, m := range strings.Split(value, ",") {
				if m == "" {
					return nil, fmt.Errorf("path %s: empty member in %q", p.Name, w)
				}
				p.Accesses = append(p.Accesses, Access{op, m})
			}
		}
	}
	if len(p.Accesses) == 0 {
		return nil, fmt.Errorf("path %s accesses nothing (want %s)", p.Name, Syntax)
	}
	return p, nil
}

func parseRate(s string) (float64, error) {
	if s == "hot" {
		return Hot, nil
	}
	num, ok := strings.CutSuffix(s, "/s")
	r, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || r <= 0 || math.IsInf(r, 0) || math.IsNaN(r) {
		return 0, fmt.Errorf("rate=%s is not \"hot\" or a positive number per second such as 250/s", s)
	}
	return r, nil
}
