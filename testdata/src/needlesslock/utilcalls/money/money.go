// Package money runs no SQL and holds no lock: the pass reads which of its
// functions only compute.
package money

import (
	"math"
	"net/http"
	"strings"
)

// Add only computes, through a helper of its own.
func Add(a, b float64) float64 { return round(a + b) }

func round(f float64) float64 { return math.Round(f*100) / 100 }

// Cents is a value type whose methods only compute.
type Cents int64

func (c Cents) Plus(n int64) Cents { return c + Cents(n) }

// Label calls back into code it is given: not pure.
func Label(amount float64, format func(float64) string) string {
	return strings.ToUpper(format(amount))
}

// Report posts to the outside world.
func Report(url string) error {
	resp, err := http.Post(url, "text/plain", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
