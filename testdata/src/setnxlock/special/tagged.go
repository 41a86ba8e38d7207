//go:build never

package special

// A file excluded by build tags is not analysed at all.
func excluded() { undefinedInThisBuild() }
