package media

import (
	"testing"

	"github.com/arbiter-annotation/arbiter/backend/blob"
	"github.com/arbiter-annotation/arbiter/tasks"
)

// TestSniffContentType: the bytes decide first and the name only when they say little;
// active content is a download whether the bytes or the name say so.
func TestSniffContentType(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`
	cases := []struct {
		head, name, want string
	}{
		{string(pngHead), "photo.png", "image/png"},
		{string(pngHead), "photo.html", "image/png"},
		{string(pngHead), "", "image/png"},
		{"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "x.bin", "image/jpeg"},
		{"GIF89a", "x", "image/gif"},
		{"%PDF-1.7\n", "paper.txt", "application/pdf"},
		{"RIFF\x24\x00\x00\x00WAVEfmt ", "take.txt", "audio/wave"},
		{"<!DOCTYPE html><p>hi", "notes.txt", blob.Download},
		{"<html><script>alert(1)</script>", "page.png", blob.Download},
		{"<?xml version=\"1.0\"?><a/>", "data.txt", blob.Download},
		{"<script>alert(1)</script>", "", blob.Download},
		{svg, "logo.svg", blob.Download},
		{svg, "logo.png", "image/png"}, // note: shown as an image, which runs no script
		{"plain words", "feed.xml", blob.Download},
		{"plain words", "app.js", blob.Download},
		{"plain words", "page.html", blob.Download},
		{"plain words", "notes.txt", "text/plain; charset=utf-8"},
		{"plain words", "notes", "text/plain; charset=utf-8"},
		{"plain words", "style.css", "text/css; charset=utf-8"},
		{"\x00\x01\x02\x03", "model.glb", "model/gltf-binary"},
		{"\x00\x01\x02\x03", "MODEL.GLB", "model/gltf-binary"},
		{"\x00\x01\x02\x03", "scene.gltf", "model/gltf+json"},
		{"\x00\x01\x02\x03", "song.flac", "audio/flac"},
		{"\x00\x01\x02\x03", "clip.m4a", "audio/mp4"},
		{"\x00\x01\x02\x03", "photo.webp", "image/webp"},
		{"\x00\x01\x02\x03", "blob", blob.Download},
		{"", "", "text/plain; charset=utf-8"},
	}
	for _, c := range cases {
		got := SniffContentType([]byte(c.head), c.name)
		if got != c.want || active(got) {
			t.Errorf("SniffContentType(%.20q, %q) = %q, want %q", c.head, c.name, got, c.want)
		}
	}
}

// TestFits: a file fits an input by what its bytes were sniffed as: an HTML page or a PNG is
// no audio, an MP4 container may be (M4A), and nothing fits a text input.
func TestFits(t *testing.T) {
	mp4 := "\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"
	cases := []struct {
		head, name string
		t          tasks.InputType
		want       bool
	}{
		{string(pngHead), "photo.png", tasks.InputImage, true},
		{string(pngHead), "photo.png", tasks.InputImageList, true},
		{string(pngHead), "take.wav", tasks.InputAudio, false},
		{"<!DOCTYPE html><p>hi", "take.mp3", tasks.InputAudio, false},
		{"<html><body>not a picture", "photo.png", tasks.InputImage, false},
		{"RIFF\x24\x00\x00\x00WAVEfmt ", "take.wav", tasks.InputAudio, true},
		{"ID3\x04\x00\x00\x00\x00\x00\x00", "song.mp3", tasks.InputAudio, true},
		{"\x00\x01\x02\x03", "song.flac", tasks.InputAudio, true},
		{mp4, "voice.m4a", tasks.InputAudio, true},
		{mp4, "clip.mp4", tasks.InputVideo, true},
		{"RIFF\x24\x00\x00\x00WAVEfmt ", "take.wav", tasks.InputVideo, false},
		{"OggS\x00\x02", "clip.ogg", tasks.InputVideo, true},
		{"glTF\x02\x00\x00\x00", "robot.glb", tasks.InputModel3D, true},
		{string(pngHead), "robot.glb", tasks.InputModel3D, false},
		{"%PDF-1.7\n", "paper.pdf", tasks.InputImage, false},
		{"plain words", "notes.txt", tasks.InputText, false},
	}
	for _, c := range cases {
		ct := SniffContentType([]byte(c.head), c.name)
		if got := Fits(c.t, ct); got != c.want {
			t.Errorf("Fits(%s, %q from %q) = %v, want %v", c.t, ct, c.name, got, c.want)
		}
	}
}
