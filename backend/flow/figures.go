package flow

// FiguresKind names a project's derived figures, each computed by a background job and kept.
type FiguresKind string

// The kinds of derived figures.
const (
	FiguresBalance FiguresKind = "balance" // balance and readiness over the ground truth
	FiguresReport  FiguresKind = "report"  // the dataset report with loss accounting
	FiguresJudges  FiguresKind = "judges"  // the judge leaderboard against the ground truth
	// FiguresReliability is the annotators' reliability model (Dawid–Skene per question).
	FiguresReliability FiguresKind = "reliability"
)

// Valid reports whether k is a known kind.
func (k FiguresKind) Valid() bool {
	return k == FiguresBalance || k == FiguresReport || k == FiguresJudges || k == FiguresReliability
}
