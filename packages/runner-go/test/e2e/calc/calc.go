// Package calc adds and doubles.
package calc

// Add returns a + b.
func Add(a, b int) int {
	return a - b
}

// Double returns 2a.
func Double(a int) int {
	return Add(a, a)
}
