package falsesharing_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

func TestShapes(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), falsesharing.Analyzer, "shapes")
}
