package hang

import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) {}

func TestForever(t *testing.T) {
	for {
		time.Sleep(10 * time.Millisecond)
	}
}
