package server

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"log/slog"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// headlineImage draws the 1200x630 social card once at start-up, with the marketplace's name in
// the headline, so og:image and twitter:image always match the title.
func headlineImage(marketplace string) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1200, 630))
	for y := 0; y < 630; y++ { // indigo-to-violet vertical gradient
		c := color.RGBA{R: uint8(49 + y*40/630), G: uint8(46 + y*10/630), B: uint8(129 + y*60/630), A: 255}
		for x := 0; x < 1200; x++ {
			img.SetRGBA(x, y, c)
		}
	}
	drawBars(img)
	white := image.NewUniform(color.White)
	drawText(img, gobold.TTF, 64, 80, 250, white, "Data trends for "+marketplace+" sellers")
	drawText(img, goregular.TTF, 32, 80, 320, image.NewUniform(color.RGBA{224, 231, 255, 255}), "See what shoppers search for and how demand moves.")
	drawText(img, gobold.TTF, 36, 80, 560, white, "sellertrends")
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		slog.Error("og image", "error", err)
	}
	return b.Bytes()
}

// drawBars sketches a rising bar chart in the lower right corner.
func drawBars(img *image.RGBA) {
	bar := color.RGBA{165, 180, 252, 255}
	for i, h := range []int{60, 90, 80, 130, 170, 160, 220} {
		x0 := 760 + i*56
		for y := 600 - h; y < 600; y++ {
			for x := x0; x < x0+40; x++ {
				img.SetRGBA(x, y, bar)
			}
		}
	}
}

func drawText(img *image.RGBA, ttf []byte, size float64, x, y int, src image.Image, text string) {
	f, err := opentype.Parse(ttf)
	if err != nil {
		return
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return
	}
	defer face.Close()
	d := &font.Drawer{Dst: img, Src: src, Face: face, Dot: fixed.P(x, y)}
	d.DrawString(text)
}
