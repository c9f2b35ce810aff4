package calc

import "testing"

func TestAdd(t *testing.T) {
	got := Add(2, 3)
	if got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	if Add(1, -1) != 0 {
		t.Fatal("Add(1, -1) is not 0")
	}
}
