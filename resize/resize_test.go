package resize_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/poolkit/poolkit/resize"
)

// TestValidate checks that every size outside [1, MaxSize] is rejected with
// an error matching ErrInvalidSize that names the size and the valid range,
// and that every size inside is accepted.
func TestValidate(t *testing.T) {
	for _, n := range []int{-1 << 40, -1, 0, resize.MaxSize + 1} {
		err := resize.Validate(n)
		if !errors.Is(err, resize.ErrInvalidSize) {
			t.Errorf("Validate(%d) = %v, want ErrInvalidSize", n, err)
			continue
		}
		if want := fmt.Sprintf("resize: invalid size %d: want 1 to %d", n, resize.MaxSize); err.Error() != want {
			t.Errorf("Validate(%d) message %q, want %q: the size and the valid range", n, err, want)
		}
	}
	for _, n := range []int{1, 2, 1000, resize.MaxSize} {
		if err := resize.Validate(n); err != nil {
			t.Errorf("Validate(%d) = %v, want nil", n, err)
		}
	}
}
