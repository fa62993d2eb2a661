package workflow

import "github.com/arbiter-annotation/arbiter/backend/webhooks"

// UseWebhooks sets where the project's events go (item.decided, annotator.flagged here; the
// services built on the workflow send theirs through Webhooks). Without it nothing is sent.
func (s *Service) UseWebhooks(n webhooks.Notifier) {
	if n == nil {
		n = webhooks.Off{}
	}
	s.hooks = n
}

// Webhooks is where the project's events go; never nil.
func (s *Service) Webhooks() webhooks.Notifier { return s.hooks }
