//go:build noui

// Package web embeds the built single-page app; under the noui build tag
// there is none and the server answers the API only.
package web

import "io/fs"

// Dist returns nil: this binary was built without the app.
func Dist() fs.FS { return nil }
