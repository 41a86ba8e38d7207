package main

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"

	"honnef.co/go/tools/lintcmd/runner"
)

func write(format string, w io.Writer, res *result) error {
	switch format {
	case "json":
		return writeJSON(w, res.findings)
	case "sarif":
		return writeSARIF(w, res.findings)
	}
	for _, d := range res.findings {
		fmt.Fprintf(w, "%s:%d:%d: %s (%s)\n", relative(d.Position.Filename), d.Position.Line, d.Position.Column, d.Message, d.Category)
	}
	return nil
}

// jsonFinding is one line of -f json, in staticcheck's shape so that tools
// reading its output read lockvet's.
type jsonFinding struct {
	Code     string       `json:"code"`
	Severity string       `json:"severity"`
	Location jsonPosition `json:"location"`
	End      jsonPosition `json:"end"`
	Message  string       `json:"message"`
}

type jsonPosition struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

func writeJSON(w io.Writer, findings []runner.Diagnostic) error {
	enc := json.NewEncoder(w)
	for _, d := range findings {
		err := enc.Encode(jsonFinding{
			Code:     d.Category,
			Severity: "warning",
			Location: jsonPos(d.Position),
			End:      jsonPos(d.End),
			Message:  d.Message,
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func jsonPos(p token.Position) jsonPosition {
	return jsonPosition{File: p.Filename, Line: p.Line, Column: p.Column}
}
