package media

import (
	"strings"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// Codes of a media file refused for an input.
const (
	CodeMissingMedia = "missing_media" // a media path that names no file of the folder or archive
	CodeWrongMedia   = "wrong_media"   // a file whose bytes are not the medium its input shows
)

// Fits reports whether a file stored with content type ct (as SniffContentType decides it) is
// the medium an input of type t shows: an image for image inputs and image lists, a video, a
// sound (or a video container, which audio files often come in: M4A is MP4, WebM and Ogg hold
// either), a 3D model. Types that are no medium (HTML and other active content, stored as a
// download; text; PDF) fit nothing.
func Fits(t tasks.InputType, ct string) bool {
	ct, _, _ = strings.Cut(ct, ";")
	major, _, _ := strings.Cut(ct, "/")
	switch t {
	case tasks.InputImage, tasks.InputImageList:
		return major == "image"
	case tasks.InputVideo:
		return major == "video" || ct == "application/ogg"
	case tasks.InputAudio:
		return major == "audio" || ct == "video/mp4" || ct == "video/webm" || ct == "application/ogg"
	case tasks.InputModel3D:
		return major == "model"
	}
	return false
}

// Describe names a stored content type for messages: the type itself, or what a download is.
func Describe(ct string) string {
	if ct == blob.Download {
		return "a web page, a script or a file of no known media type"
	}
	return ct
}

// Medium names what an input of type t takes, for messages.
func Medium(t tasks.InputType) string {
	switch t {
	case tasks.InputImage, tasks.InputImageList:
		return "an image"
	case tasks.InputVideo:
		return "a video"
	case tasks.InputAudio:
		return "audio"
	case tasks.InputModel3D:
		return "a 3D model (GLB or glTF)"
	}
	return "no medium"
}
