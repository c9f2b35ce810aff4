package a

import "testing"

func TestA(t *testing.T) { _ = A() }
