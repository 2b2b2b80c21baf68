//go:build !noui

// Package web embeds the built single-page app (web/dist, made by `make ui`)
// into the binary. Build with -tags noui to compile without it (API only).
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built app with index.html at its root. Beside each text
// asset lie its gzip and brotli copies (app.js.gz, app.js.br, written by
// web/scripts/compress.mjs), which the server picks from by Accept-Encoding.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a valid path; fs.Sub cannot fail on it
	}
	return sub
}
