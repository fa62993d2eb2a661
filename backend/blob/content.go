package blob

import "strings"

// Download is the type served for files a browser must never render: they come as an
// attachment.
const Download = "application/octet-stream"

// inlineTypes are the media a browser may show in the page: images (not SVG, which can hold
// script), audio, video, 3D models and plain text.
var inlinePrefixes = []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp",
	"audio/", "video/", "model/gltf-binary", "text/plain"}

// Inline reports whether a stored content type is safe to show inline. Anything that can
// carry active content (HTML, SVG, XML, script) or that is unknown is not.
func Inline(contentType string) bool {
	ct := strings.ToLower(contentType)
	for _, p := range inlinePrefixes {
		if strings.HasPrefix(ct, p) {
			return true
		}
	}
	return false
}

// Served is how a blob of the stored content type is served: the type and the
// Content-Disposition. Types that are not safe inline go out as a download.
func Served(contentType string) (servedType, disposition string) {
	if Inline(contentType) {
		return contentType, "inline"
	}
	return Download, "attachment"
}
