package fifo

// Link is an element's place in a List. An element type embeds one and
// returns it from its Link method; an element is in at most one List at
// a time.
type Link[T any] struct {
	prev, next *T
	in         bool
}

// Elem is a pointer to an element of a List.
type Elem[T any] interface {
	*T
	Link() *Link[T]
}

// List is an intrusive doubly linked FIFO: the oldest element is at the
// front, and any element can leave from where it is in constant time,
// with no allocation. Its zero value is empty.
type List[T any, P Elem[T]] struct {
	head, tail P
	n          int
}

// Len returns how many elements the list holds.
func (l *List[T, P]) Len() int { return l.n }

// Front returns the oldest element, or nil.
func (l *List[T, P]) Front() P { return l.head }

// Back returns the newest element, or nil.
func (l *List[T, P]) Back() P { return l.tail }

// Next returns the element after e (the next newer one), or nil.
func (l *List[T, P]) Next(e P) P { return P(e.Link().next) }

// Contains reports whether e is in a list: the one it was pushed to.
func (l *List[T, P]) Contains(e P) bool { return e.Link().in }

// PushBack appends e, which must not be in a list.
func (l *List[T, P]) PushBack(e P) {
	k := e.Link()
	k.prev, k.next, k.in = l.tail, nil, true
	if l.tail == nil {
		l.head = e
	} else {
		l.tail.Link().next = e
	}
	l.tail = e
	l.n++
}

// Remove takes e, which must be in l, out of it.
func (l *List[T, P]) Remove(e P) {
	k := e.Link()
	if k.prev == nil {
		l.head = P(k.next)
	} else {
		P(k.prev).Link().next = k.next
	}
	if k.next == nil {
		l.tail = P(k.prev)
	} else {
		P(k.next).Link().prev = k.prev
	}
	k.prev, k.next, k.in = nil, nil, false
	l.n--
}
