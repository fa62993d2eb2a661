package agreement

import (
	"fmt"
	"math"
	"slices"
)

// Match is one pairwise outcome between two players (models): Score is 1
// when A wins, 0 when B wins and EloOptions.Tie for a tie.
type Match struct {
	A, B  string
	Score float64
}

// EloOptions sets the Elo update: R_A += K (S_A − E_A), E_A = 1 / (1 + 10^((R_B−R_A)/400)).
type EloOptions struct {
	K       float64 // default 32
	Tie     float64 // score of a tie for A (default 0.5)
	Initial float64 // starting rating (default 1000)
}

// EloRating is one player's final rating.
type EloRating struct {
	Player  string  `json:"player"`
	Rating  float64 `json:"rating"`
	Matches int     `json:"matches"`
}

// Elo runs sequential Elo updates over the matches in order and returns the
// ratings sorted from best to worst (by name on equal ratings).
func Elo(matches []Match, opts EloOptions) ([]EloRating, error) {
	if opts.K == 0 {
		opts.K = 32
	}
	if opts.Initial == 0 {
		opts.Initial = 1000
	}
	rating := map[string]*EloRating{}
	get := func(p string) *EloRating {
		r, ok := rating[p]
		if !ok {
			r = &EloRating{Player: p, Rating: opts.Initial}
			rating[p] = r
		}
		return r
	}
	for i, m := range matches {
		if m.A == m.B || m.Score < 0 || m.Score > 1 || math.IsNaN(m.Score) {
			return nil, fmt.Errorf("%w: match %d: players %q vs %q, score %v", ErrInput, i+1, m.A, m.B, m.Score)
		}
		a, b := get(m.A), get(m.B)
		ea := 1 / (1 + math.Pow(10, (b.Rating-a.Rating)/400))
		delta := opts.K * (m.Score - ea)
		a.Rating += delta
		b.Rating -= delta
		a.Matches++
		b.Matches++
	}
	out := make([]EloRating, 0, len(rating))
	for _, r := range rating {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(x, y EloRating) int {
		if c := cmpFloat(y.Rating, x.Rating); c != 0 {
			return c
		}
		return cmpString(x.Player, y.Player)
	})
	return out, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
