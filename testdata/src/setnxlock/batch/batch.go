// Package batch locks every account an order touches, one key per item of
// a list, in one method, and releases them all in another: the item a loop
// visits is one key for both.
package batch

import (
	"testcases/setnxlock/batch/accountlock"
)

type Transfer struct{ AccountID string }

type Order struct{ Transfers []*Transfer }

type handler struct{}

func (h *handler) lockAccounts(order *Order) error {
	for _, t := range order.Transfers {
		if err := accountlock.Lock(t.AccountID); err != nil { // want `lock value is a constant in accountlock.Lock` `lock has no TTL in accountlock.Lock`
			return err
		}
	}
	return nil
}

func (h *handler) unlockAccounts(order *Order) {
	for _, t := range order.Transfers {
		_ = accountlock.Unlock(t.AccountID)
	}
}

func (h *handler) Update(order any) error {
	o, ok := order.(*Order)
	if !ok {
		return nil
	}
	if err := h.lockAccounts(o); err != nil {
		return err
	}
	defer h.unlockAccounts(o)
	return nil
}

// The first item alone is another key than the one each item is.
func (h *handler) first(order *Order) error {
	if err := accountlock.Lock(order.Transfers[0].AccountID); err != nil {
		return err
	}
	return nil
}
