package main

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
)

const imgW, imgH = 96, 64

type canvas struct{ *image.RGBA }

func newCanvas(bg color.RGBA) canvas {
	c := canvas{image.NewRGBA(image.Rect(0, 0, imgW, imgH))}
	c.rect(0, 0, imgW, imgH, bg)
	return c
}

func (c canvas) rect(x0, y0, x1, y1 int, col color.RGBA) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c.Set(x, y, col)
		}
	}
}

func (c canvas) circle(cx, cy, r int, col color.RGBA) {
	for y := cy - r; y <= cy+r; y++ {
		for x := cx - r; x <= cx+r; x++ {
			if (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r {
				c.Set(x, y, col)
			}
		}
	}
}

// triangle fills an upward triangle with apex (cx, top) and base at bottom.
func (c canvas) triangle(cx, top, bottom, half int, col color.RGBA) {
	for y := top; y <= bottom; y++ {
		w := half * (y - top) / max(bottom-top, 1)
		c.rect(cx-w, y, cx+w+1, y+1, col)
	}
}

// blur returns a box-blurred copy, the D3-Omni "Edge & Clarity" perturbation.
func (c canvas) blur(r int) canvas {
	out := canvas{image.NewRGBA(c.Bounds())}
	for y := 0; y < imgH; y++ {
		for x := 0; x < imgW; x++ {
			var s [3]int
			n := 0
			for dy := -r; dy <= r; dy++ {
				for dx := -r; dx <= r; dx++ {
					p := c.RGBAAt(min(max(x+dx, 0), imgW-1), min(max(y+dy, 0), imgH-1))
					s[0], s[1], s[2], n = s[0]+int(p.R), s[1]+int(p.G), s[2]+int(p.B), n+1
				}
			}
			out.Set(x, y, color.RGBA{uint8(s[0] / n), uint8(s[1] / n), uint8(s[2] / n), 255})
		}
	}
	return out
}

var (
	sky    = color.RGBA{135, 190, 235, 255}
	sea    = color.RGBA{30, 90, 160, 255}
	wood   = color.RGBA{130, 85, 50, 255}
	red    = color.RGBA{210, 30, 40, 255}
	green  = color.RGBA{60, 160, 70, 255}
	white  = color.RGBA{245, 245, 240, 255}
	gray   = color.RGBA{120, 120, 125, 255}
	dark   = color.RGBA{40, 40, 45, 255}
	orange = color.RGBA{235, 130, 30, 255}
	yellow = color.RGBA{250, 215, 60, 255}
)

func apple() canvas {
	c := newCanvas(sky)
	c.rect(0, 44, imgW, imgH, wood)
	c.circle(48, 34, 12, red)
	c.rect(47, 18, 50, 24, wood)
	c.circle(53, 20, 3, green)
	return c
}

func boats() canvas {
	c := newCanvas(sky)
	c.rect(0, 36, imgW, imgH, sea)
	c.triangle(30, 14, 36, 9, white)
	c.triangle(66, 20, 36, 7, white)
	c.circle(84, 10, 6, yellow)
	return c
}

func robotFrame() canvas {
	c := newCanvas(color.RGBA{200, 200, 205, 255})
	c.rect(0, 40, imgW, imgH, gray)
	c.rect(20, 0, 28, 30, dark)
	c.rect(14, 30, 34, 34, dark)
	c.rect(14, 34, 17, 40, dark)
	c.rect(31, 34, 34, 40, dark)
	c.rect(60, 32, 72, 44, green)
	return c
}

func storyPage(foxX int, sunUp bool) canvas {
	c := newCanvas(sky)
	c.rect(0, 42, imgW, imgH, green)
	if sunUp {
		c.circle(80, 12, 7, yellow)
	}
	c.circle(foxX, 40, 7, orange)
	c.triangle(foxX-4, 28, 34, 3, orange)
	c.triangle(foxX+4, 28, 34, 3, orange)
	return c
}

// cubeView draws a cube seen from the front, the side or the top.
func cubeView(view string) canvas {
	c := newCanvas(white)
	switch view {
	case "front":
		c.rect(32, 16, 64, 48, red)
	case "side":
		c.rect(30, 16, 52, 48, red)
		c.rect(52, 16, 66, 48, color.RGBA{150, 20, 30, 255})
	default:
		c.rect(32, 16, 64, 48, color.RGBA{240, 80, 90, 255})
	}
	return c
}

func writeImages(dir string) error {
	edited := boats()
	edited.circle(84, 10, 6, orange)
	images := map[string]canvas{
		"apple.png":             apple(),
		"apple_blurred.png":     apple().blur(2),
		"boats.png":             boats(),
		"boats_sunset.png":      edited,
		"robot_first_frame.png": robotFrame(),
		"story_current.png":     storyPage(30, true),
		"story_next_gt.png":     storyPage(62, true),
		"story_next_gen.png":    storyPage(58, false),
		"cube_front.png":        cubeView("front"),
		"cube_side.png":         cubeView("side"),
		"cube_top.png":          cubeView("top"),
	}
	for name, img := range images {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(f, img); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
