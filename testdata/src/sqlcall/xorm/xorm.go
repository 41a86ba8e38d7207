// Package xorm holds statements built with xorm: the chain's conditions and
// columns, and the bean its finisher writes, read as the SQL xorm sends.
package xorm

import "xorm.io/xorm"

type Order struct {
	ID     int64  `xorm:"pk autoincr 'id'"`
	Status string `xorm:"'status'"`
	UserID int64
}

type Ledger struct {
	ID    int64
	Entry string
}

func (Ledger) TableName() string { return "ledger_entries" }

func writes(engine *xorm.Engine, s *xorm.Session, o *Order, id int64) error {
	engine.ID(id).Cols("status").Update(&Order{Status: "paid"})                         // want `xorm.Update Update order set status=p1 where id=p2 on engine$`
	n, err := engine.Where("id = ? AND status = ?", id, "new").Cols("status").Update(o) // want `xorm.Update Update order set status=p1 where id=p2,status=p3 on engine checked$`
	if err != nil || n == 0 {
		return err
	}
	engine.ID(id).Update(o)        // want `xorm.Update Update order set from a value where id=p1 on engine$`
	engine.Insert(o)               // want `xorm.Insert Insert order on engine$`
	s.Insert(&Ledger{Entry: "x"})  // want `xorm.Insert Insert ledger_entries on s$`
	engine.ID(id).Delete(&Order{}) // want `xorm.Delete Delete order where id=p1 args id on engine$`
	engine.Delete(o)               // want `xorm.Delete Delete order on engine unknown$`
	return nil
}
