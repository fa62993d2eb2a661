package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
)

const sampleRate = 8000

// tone synthesises a voice-like buzz: a fundamental with harmonics, a
// syllable-rate envelope, and optional noise (the D3-Omni background-noise
// defect).
func tone(f0, seconds, noise float64, seed uint32) []int16 {
	n := int(seconds * sampleRate)
	out := make([]int16, n)
	state := seed
	for i := range out {
		t := float64(i) / sampleRate
		env := 0.5 - 0.5*math.Cos(2*math.Pi*4*t)
		v := env * (0.6*math.Sin(2*math.Pi*f0*t) + 0.25*math.Sin(4*math.Pi*f0*t) + 0.1*math.Sin(6*math.Pi*f0*t))
		state = state*1664525 + 1013904223
		v += noise * (float64(state>>8)/float64(1<<24) - 0.5)
		out[i] = int16(math.Max(-1, math.Min(1, v)) * 12000)
	}
	return out
}

// wav encodes mono 16-bit PCM.
func wav(samples []int16) []byte {
	var b bytes.Buffer
	data := len(samples) * 2
	le := binary.LittleEndian
	b.WriteString("RIFF")
	binary.Write(&b, le, uint32(36+data))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(sampleRate), uint32(sampleRate * 2), uint16(2), uint16(16)} {
		binary.Write(&b, le, v)
	}
	b.WriteString("data")
	binary.Write(&b, le, uint32(data))
	binary.Write(&b, le, samples)
	return b.Bytes()
}

func writeAudio(dir string) error {
	clips := map[string][]int16{
		"tts_calm.wav":   tone(180, 0.8, 0, 1),
		"tts_noisy.wav":  tone(240, 0.8, 0.6, 2),
		"speech_fox.wav": tone(300, 0.8, 0.05, 3),
		"rain.wav":       tone(60, 0.8, 1.2, 4),
	}
	for name, s := range clips {
		if err := os.WriteFile(filepath.Join(dir, name), wav(s), 0o644); err != nil {
			return err
		}
	}
	return nil
}
