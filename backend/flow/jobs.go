package flow

import "fmt"

// TooManyJobsError refuses a background job (an import, a release) to a project that already
// has as many of that kind queued or running as one project may, so that no project fills the
// queue every project shares.
type TooManyJobsError struct {
	// Kind names the jobs, plural: "releases", "background imports".
	Kind  string
	Limit int
}

func (e *TooManyJobsError) Error() string {
	return fmt.Sprintf("this project already has %d %s queued or running, as many as a project may; start another once one of them has finished", e.Limit, e.Kind)
}
