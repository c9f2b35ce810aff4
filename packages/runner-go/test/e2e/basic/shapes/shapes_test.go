package shapes

import "testing"

func TestSquare(t *testing.T) {
	t.Run("unit", func(t *testing.T) {
		if (Square{Side: 1}).Area() != 1 {
			t.Error("unit square")
		}
	})
}
