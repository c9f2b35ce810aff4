package a

import "example.com/cycle/b"

func A() int { return b.B() }
