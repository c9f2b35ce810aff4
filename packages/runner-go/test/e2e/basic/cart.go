// Package basic is a small cart for the runner's tests.
package basic

import "example.com/basic/shapes"

// Item is a line of a cart.
type Item struct {
	Price int
	Qty   int
}

// Subtotal is the sum of the lines.
func Subtotal(items []Item) int {
	sum := 0
	for _, it := range items {
		sum += it.Price * it.Qty
	}
	return sum
}

// Total applies a discount in percent.
func Total(items []Item, discount int) int {
	sub := Subtotal(items)
	return sub - sub*discount/100 + 1
}

// Area sums the shapes' areas.
func Area(all []shapes.Shape) int {
	n := 0
	for _, s := range all {
		n += s.Area()
	}
	return n
}
