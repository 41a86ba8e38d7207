package main

import (
	"encoding/json"
	"go/token"
	"io"
	"path/filepath"
	"strings"

	"honnef.co/go/tools/lintcmd/runner"

	"github.com/lockvet/lockvet/analyzers"
)

// writeSARIF writes a SARIF 2.1.0 log for GitHub code scanning: every check a
// rule with its documentation, every suggested fix a SARIF fix.
func writeSARIF(w io.Writer, findings []runner.Diagnostic) error {
	driver := sarifDriver{Name: "lockvet", InformationURI: "https://github.com/lockvet/lockvet"}
	for _, a := range analyzers.All {
		title, text, _ := strings.Cut(a.Doc, "\n")
		title = strings.TrimPrefix(title, a.Name+": ")
		driver.Rules = append(driver.Rules, sarifRule{
			ID:               a.Name,
			ShortDescription: sarifText{title},
			FullDescription:  sarifText{strings.TrimSpace(text)},
			Help:             sarifText{a.Doc},
			HelpURI:          helpURI(a),
			Default:          sarifConfig{Level: "warning"},
		})
	}
	run := sarifRun{Tool: sarifTool{driver}, Results: []sarifResult{}}
	for _, d := range findings {
		r := sarifResult{
			RuleID:    d.Category,
			Level:     "warning",
			Message:   sarifText{d.Message},
			Locations: []sarifLocation{{sarifPhysical{artifact(d.Position.Filename), region(d.Position, d.End)}}},
		}
		for _, fix := range d.SuggestedFixes {
			r.Fixes = append(r.Fixes, sarifFixOf(fix))
		}
		run.Results = append(run.Results, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Version: "2.1.0",
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Runs:    []sarifRun{run},
	})
}

func sarifFixOf(fix runner.SuggestedFix) sarifFix {
	out := sarifFix{Description: sarifText{fix.Message}}
	byFile := map[string]int{}
	for _, e := range fix.TextEdits {
		i, ok := byFile[e.Position.Filename]
		if !ok {
			i = len(out.Changes)
			byFile[e.Position.Filename] = i
			out.Changes = append(out.Changes, sarifChange{Location: artifact(e.Position.Filename)})
		}
		out.Changes[i].Replacements = append(out.Changes[i].Replacements, sarifReplacement{
			Deleted:  region(e.Position, e.End),
			Inserted: sarifContent{string(e.NewText)},
		})
	}
	return out
}

func region(start, end token.Position) sarifRegion {
	r := sarifRegion{StartLine: start.Line, StartColumn: start.Column}
	if end.IsValid() {
		r.EndLine, r.EndColumn = end.Line, end.Column
	}
	return r
}

// artifact names a file relative to the working directory (the repository root
// in CI, which is what code scanning resolves against), else as a file URI.
func artifact(file string) sarifArtifact {
	if rel := relative(file); !filepath.IsAbs(rel) {
		return sarifArtifact{URI: filepath.ToSlash(rel), BaseID: "%SRCROOT%"}
	}
	return sarifArtifact{URI: "file://" + filepath.ToSlash(file)}
}

// The subset of SARIF 2.1.0 that lockvet writes.
type (
	sarifLog struct {
		Version string     `json:"version"`
		Schema  string     `json:"$schema"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string      `json:"id"`
		ShortDescription sarifText   `json:"shortDescription"`
		FullDescription  sarifText   `json:"fullDescription"`
		Help             sarifText   `json:"help"`
		HelpURI          string      `json:"helpUri"`
		Default          sarifConfig `json:"defaultConfiguration"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		Level     string          `json:"level"`
		Message   sarifText       `json:"message"`
		Locations []sarifLocation `json:"locations"`
		Fixes     []sarifFix      `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		Physical sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		Artifact sarifArtifact `json:"artifactLocation"`
		Region   sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI    string `json:"uri"`
		BaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
	sarifFix struct {
		Description sarifText     `json:"description"`
		Changes     []sarifChange `json:"artifactChanges"`
	}
	sarifChange struct {
		Location     sarifArtifact      `json:"artifactLocation"`
		Replacements []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		Deleted  sarifRegion  `json:"deletedRegion"`
		Inserted sarifContent `json:"insertedContent"`
	}
	sarifContent struct {
		Text string `json:"text"`
	}
)
