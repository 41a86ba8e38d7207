package plugin

import (
	"slices"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
)

func init() {
	register.Plugin("lockvet", New)
}

// lockvet is the linter golangci-lint builds from the settings.
type lockvet struct {
	analyzers []*analysis.Analyzer
}

// New decodes the linter's settings and applies them. golangci-lint calls it
// once, before any package is analysed.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, err
	}
	analyzers, err := selectChecks(s.Checks)
	if err != nil {
		return nil, err
	}
	if err := s.setFlags(); err != nil {
		return nil, err
	}
	return &lockvet{analyzers: analyzers}, nil
}

// BuildAnalyzers returns a copy: the list may be analyzers.All, which other
// hosts share.
func (l *lockvet) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return slices.Clone(l.analyzers), nil
}

// GetLoadMode asks for type information: the checks build SSA and share facts
// across packages.
func (l *lockvet) GetLoadMode() string {
	return register.LoadModeTypesInfo
}
