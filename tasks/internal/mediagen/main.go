// Command mediagen writes the tiny sample media committed under
// tasks/templates/media: PNG images, WAV audio, a GLB cube, and MP4 clips
// (through ffmpeg, when it is installed). Run it from the repository root:
//
//	go run ./tasks/internal/mediagen
//
// The output is deterministic, so re-running it leaves the files unchanged.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	dir := flag.String("out", "tasks/templates/media", "output directory")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	steps := []func(string) error{writeImages, writeAudio, writeGLB, writeVideos}
	for _, step := range steps {
		if err := step(*dir); err != nil {
			log.Fatal(err)
		}
	}
}

// writeVideos renders short MP4 clips with ffmpeg from lavfi sources and
// from a generated frame.
func writeVideos(dir string) error {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		fmt.Fprintln(os.Stderr, "mediagen: ffmpeg not found; skipping videos")
		return nil
	}
	clips := map[string][]string{
		"t2v_waves.mp4": {"-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10:duration=1.5",
			"-f", "lavfi", "-i", "sine=frequency=330:duration=1.5:sample_rate=16000"},
		"t2v_life.mp4": {"-f", "lavfi", "-i", "life=size=96x64:rate=10:mold=10:ratio=0.3:seed=7,trim=duration=1.5",
			"-f", "lavfi", "-i", "anoisesrc=duration=1.5:amplitude=0.2:sample_rate=16000:seed=3"},
		"robot_rollout.mp4": {"-loop", "1", "-t", "1.5", "-i", filepath.Join(dir, "robot_first_frame.png"),
			"-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-vf", "rotate=0.15*t:fillcolor=gray,format=yuv420p", "-shortest"},
	}
	for name, in := range clips {
		args := append([]string{"-y", "-loglevel", "error"}, in...)
		args = append(args, "-c:v", "libx264", "-preset", "veryslow", "-crf", "35", "-pix_fmt", "yuv420p",
			"-c:a", "aac", "-b:a", "24k", "-ac", "1", "-map_metadata", "-1", "-fflags", "+bitexact",
			"-flags:v", "+bitexact", "-flags:a", "+bitexact", "-movflags", "+faststart", filepath.Join(dir, name))
		if out, err := exec.Command("ffmpeg", args...).CombinedOutput(); err != nil {
			return fmt.Errorf("ffmpeg %s: %v: %s", name, err, out)
		}
	}
	return nil
}
