package basic

import (
	"testing"

	"example.com/basic/shapes"
)

func TestSubtotal(t *testing.T) {
	got := Subtotal([]Item{{Price: 2, Qty: 3}})
	if got != 6 {
		t.Errorf("Subtotal = %d, want 6", got)
	}
}

func TestTotalWithDiscount(t *testing.T) {
	if got := Total([]Item{{Price: 100, Qty: 1}}, 10); got != 90 {
		t.Fatalf("Total = %d, want 90", got)
	}
}

func TestTax(t *testing.T) {
	cases := []struct {
		name string
		in   int
		want int
	}{
		{name: "ten percent", in: 10, want: 11},
		{name: "zero", in: 0, want: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Total([]Item{{Price: c.in, Qty: 1}}, 0) + c.in/10; got != c.want {
				t.Errorf("got %d, want %d", got, c.want)
			}
		})
	}
}

func TestArea(t *testing.T) {
	if got := Area([]shapes.Shape{shapes.Square{Side: 2}}); got != 4 {
		t.Errorf("Area = %d", got)
	}
}
