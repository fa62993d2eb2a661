package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/backend/webhooks"
)

// webhookList is the body of GET /webhooks.
type webhookList struct {
	Items []webhooks.View `json:"items"`
}

// deliveryList is the body of GET /webhooks/:wid/deliveries.
type deliveryList struct {
	Items []webhooks.DeliveryView `json:"items"`
}

// listWebhooks lists the project's webhooks, without their secrets.
func (s *Server) listWebhooks(c *gin.Context) error {
	ws, err := s.webhooks.List(c.Request.Context(), currentProject(c).ID)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, webhookList{Items: ws})
	return nil
}

// createWebhook registers a webhook: 201 with its secret, shown this once.
func (s *Server) createWebhook(c *gin.Context) error {
	var in webhooks.Input
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	w, err := s.webhooks.Create(c.Request.Context(), currentProject(c).ID, currentUser(c).ID, in)
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusCreated, w)
	return nil
}

// patchWebhook changes a webhook's url, events or enabled flag.
func (s *Server) patchWebhook(c *gin.Context) error {
	var in webhooks.Input
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	w, err := s.webhooks.Update(c.Request.Context(), currentProject(c).ID, currentUser(c).ID, c.Param("wid"), in)
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, w)
	return nil
}

// deleteWebhook removes a webhook and its delivery log.
func (s *Server) deleteWebhook(c *gin.Context) error {
	if err := s.webhooks.Delete(c.Request.Context(), currentProject(c).ID, currentUser(c).ID, c.Param("wid")); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

// rotateWebhook gives a webhook a new secret, answered this once.
func (s *Server) rotateWebhook(c *gin.Context) error {
	w, err := s.webhooks.Rotate(c.Request.Context(), currentProject(c).ID, currentUser(c).ID, c.Param("wid"))
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, w)
	return nil
}

// webhookDeliveries lists a webhook's latest deliveries, newest first.
func (s *Server) webhookDeliveries(c *gin.Context) error {
	ds, err := s.webhooks.Deliveries(c.Request.Context(), currentProject(c).ID, c.Param("wid"))
	if err != nil {
		return err
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, deliveryList{Items: ds})
	return nil
}
