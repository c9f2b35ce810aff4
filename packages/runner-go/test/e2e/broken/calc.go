package broken

func Add(a, b int) int {
	return a + b + missing
}
