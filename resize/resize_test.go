package resize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/resize"
)

// TestValidate checks that every size outside [1, MaxSize] is rejected with
// an error matching ErrInvalidSize that names the size, and that every size
// inside is accepted.
func TestValidate(t *testing.T) {
	for _, n := range []int{-1 << 40, -1, 0, resize.MaxSize + 1} {
		err := resize.Validate(n)
		if !errors.Is(err, resize.ErrInvalidSize) {
			t.Errorf("Validate(%d) = %v, want ErrInvalidSize", n, err)
			continue
		}
		if !strings.Contains(err.Error(), "invalid size") {
			t.Errorf("Validate(%d) message %q does not say what is wrong", n, err)
		}
	}
	for _, n := range []int{1, 2, 1000, resize.MaxSize} {
		if err := resize.Validate(n); err != nil {
			t.Errorf("Validate(%d) = %v, want nil", n, err)
		}
	}
}
