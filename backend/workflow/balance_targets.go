package workflow

import (
	"encoding/json"
	"math"
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/store"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// BalanceTargets are a project's balance targets: the minimum No/Yes ratio of every binary
// question, the maximum spread of the total-score histogram, and what to count by: a metadata
// key as "meta.<key>", or "language" for the items' languages.
type BalanceTargets struct {
	Ratio  *float64 `json:"ratio,omitempty"`
	Spread *int64   `json:"spread,omitempty"`
	By     string   `json:"by,omitempty"`
}

// BalanceByLanguage is the balance's "by" that counts items by their language.
const BalanceByLanguage = "language"

// ParseBalanceTargets reads a project's stored targets (none when empty).
func ParseBalanceTargets(raw store.JSON) (BalanceTargets, error) {
	var t BalanceTargets
	if len(raw) == 0 {
		return t, nil
	}
	return t, json.Unmarshal(raw, &t)
}

// CheckBalanceTargets validates targets against a schema: a ratio above 0 and a spread of at
// least 1 need binary questions; by names a metadata key as "meta.<key>", or is "language".
func CheckBalanceTargets(fe tasks.FieldErrors, t *BalanceTargets, schema *tasks.Schema) {
	binary := false
	if schema != nil {
		for _, q := range schema.Questions {
			binary = binary || q.Kind == tasks.KindBinary
		}
	}
	if t.Ratio != nil {
		switch {
		case !binary:
			fe.Add("balance.ratio", "not_binary", "a ratio target needs binary questions; this project has none")
		case !(*t.Ratio > 0) || math.IsInf(*t.Ratio, 0):
			fe.Add("balance.ratio", "out_of_range", "the ratio must be a number above 0")
		}
	}
	if t.Spread != nil {
		switch {
		case !binary:
			fe.Add("balance.spread", "not_binary", "a spread target needs binary questions; this project has none")
		case *t.Spread < 1:
			fe.Add("balance.spread", "out_of_range", "the spread must be at least 1")
		}
	}
	if t.By != "" && t.By != BalanceByLanguage {
		key, ok := strings.CutPrefix(t.By, "meta.")
		if !ok || key == "" || len(key) > 200 {
			fe.Add("balance.by", "invalid_value", "by names a metadata key as meta.<key>, or is language")
		}
	}
}
