package costmodel

import (
	"encoding/json"
	"fmt"
	"os"
)

// Load reads a calibration that Save wrote.
func Load(file string) (*Calibration, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	c, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (write one with mglayout sweep -save-calibration FILE)", file, err)
	}
	return c, nil
}

// Parse reads a calibration from its JSON.
func Parse(b []byte) (*Calibration, error) {
	var c Calibration
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("not a calibration: %v", err)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Save writes a calibration as JSON.
func (c *Calibration) Save(file string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}
