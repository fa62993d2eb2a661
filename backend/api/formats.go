package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/arbiter-annotation/arbiter/exports"
)

// formatsResponse is GET /formats: every export format a release can name, in documentation
// order, with the options that belong to it alone.
type formatsResponse struct {
	Formats []exports.FormatInfo `json:"formats"`
}

// listFormats answers the export formats; they are the same for every project and caller.
func (s *Server) listFormats(c *gin.Context) error {
	c.JSON(http.StatusOK, formatsResponse{Formats: exports.Formats()})
	return nil
}
