// Package shapes has an interface with one implementation.
package shapes

// Shape is anything with an area.
type Shape interface {
	Area() int
}

// Square is a Shape.
type Square struct{ Side int }

// Area of the square.
func (s Square) Area() int { return s.Side * s.Side }
