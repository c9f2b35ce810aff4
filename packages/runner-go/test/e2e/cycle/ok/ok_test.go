package ok

import "testing"

func TestOK(t *testing.T) {}
