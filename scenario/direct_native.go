//go:build !js

package scenario

// directDecoding turns on the direct decoding of a dump's List entries
// (dumpdirect.go), which reads a large dump several times faster.
const directDecoding = true
