package b

import "example.com/cycle/a"

func B() int { return a.A() }
