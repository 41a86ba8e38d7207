// Package gorm holds gorm builder chains and raw SQL.
package gorm

import (
	"context"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type Order struct {
	ID      int64
	Status  string
	Version int
}

type OrderItem struct {
	ID    int64
	Stock int
}

type Ledger struct{ ID int64 }

func (Ledger) TableName() string { return "points_ledger" }

func updates(ctx context.Context, db *gorm.DB, id int64, v int) error {
	db.Model(&Order{}).Where("id = ?", id).Update("status", "PAID")                                                   // want `gorm.Update Update orders set status=p1 where id=p2 args "PAID",id on db`
	res := db.WithContext(ctx).Model(&Order{}).Where("id = ? AND status = ?", id, "PENDING").Update("status", "PAID") // want `gorm.Update Update orders set status=p1 where id=p2,status=p3 args "PAID",id,"PENDING" on db checked`
	if res.Error != nil || res.RowsAffected != 1 {
		return res.Error
	}
	db.Model(&Order{}).Where("id = ?", id).Where("version = ?", v).
		Updates(map[string]any{"status": "PAID", "version": gorm.Expr("version + ?", 1)}) // want `gorm.Updates Update orders set status=p1,version=version \+ \?\(self\) where id=p3,version=p4 args "PAID",1,id,v on db`
	db.Model(&OrderItem{}).Where("id = ?", id).Where("stock >= ?", 2).UpdateColumn("stock", gorm.Expr("stock - ?", 2)) // want `gorm.UpdateColumn Update order_items set stock=stock - \?\(self\) where id=p2,stock>=p3 args 2,id,2 on db`
	db.Table("orders").Where(map[string]any{"id": id, "status": "NEW"}).Update("status", "OLD")                        // want `gorm.Update Update orders set status=p1 where id=p2,status=p3 args "OLD",id,"NEW" on db`
	db.Model(&Order{}).Where("status", "PENDING").Update("status", "LOST")                                             // want `gorm.Update Update orders set status=p1 where status=p2 args "LOST","PENDING" on db`
	db.Model(&Order{}).Where("id = ?", id).Or("status = ?", "NEW").Update("status", "X")                               // want `gorm.Update Update orders set status=p1 where id=p2 args "X",id,"NEW" on db opaque`
	db.Model(&Order{ID: id}).Updates(Order{Status: "PAID"})                                                            // want `gorm.Updates Update orders set from a value on db$`
	db.Model(&Order{ID: id}).Where("status = ?", "NEW").Updates(Order{Status: "PAID"})                                 // want `gorm.Updates Update orders where status=p1 on db unknown`
	db.Table(Ledger{}.TableName()).Create(&Ledger{ID: id})                                                             // want `gorm.Create Insert points_ledger on db$`
	db.Model(&Order{}).Scopes(recent).Update("status", "OLD")                                                          // want `gorm.Update Update orders set status=p1 on db unknown opaque`
	return db.Save(&Order{ID: id}).Error                                                                               // want `gorm.Save Update orders set from a value on db$`
}

func recent(db *gorm.DB) *gorm.DB { return db.Where("created_at > now() - interval '1 day'") }

func others(db *gorm.DB, id int64, o *Order) {
	db.Delete(&Order{}, "id = ?", id)                                      // want `gorm.Delete Delete orders where id=p1 args id on db`
	db.Delete(&OrderItem{}, id)                                            // want `gorm.Delete Delete order_items where id=p1 args id on db`
	db.Create(o)                                                           // want `gorm.Create Insert orders on db`
	db.Clauses(clause.OnConflict{DoNothing: true}).Create(&Ledger{ID: id}) // want `gorm.Create Insert points_ledger on db conflict nothing`
	db.Clauses(clause.OnConflict{UpdateAll: true}).Create(o)               // want `gorm.Create Insert orders on db conflict update`
	db.Clauses(clause.Returning{}).Where("id = ?", id).Delete(&Order{})    // want `gorm.Delete Delete orders where id=p1 args id on db returning`
	db.Where("status = ?", "NEW").Find(&[]Order{})                         // want `gorm.Find Select orders where status=p1 args "NEW" on db`
}

func raw(db *gorm.DB, id int64) (int64, error) {
	db.Exec(`UPDATE orders SET status = ? WHERE id = ?`, "PAID", id)                                         // want `gorm.Exec Update orders set status=p1 where id=p2 args "PAID",id on db`
	db.Exec(`UPDATE orders SET status = @status WHERE id = @id`, map[string]any{"status": "PAID", "id": id}) // want `gorm.Exec Update orders set status=p1 where id=p2 on db named _`
	var got int64
	err := db.Raw(`UPDATE orders SET status = 'X' WHERE id = ? AND status = 'Y' RETURNING id`, id).Scan(&got).Error // want `gorm.Raw Update orders set status='X' where id=p1,status='Y' args id on db returning checked`
	return got, err
}

func transactions(db *gorm.DB, id int64) error {
	tx := db.Begin()
	defer tx.Rollback()
	var o Order
	tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&o, id) // want `gorm.First Select orders where id=p1 args id on Begin# tx lock FOR UPDATE`
	tx.Model(&o).Update("status", "PAID")                        // want `gorm.Update Update orders set status=p1 args "PAID" on Begin# tx`
	tx.Commit()
	return db.Transaction(func(tx *gorm.DB) error {
		return tx.Model(&Order{}).Where("id = ?", id).Update("status", "SHIPPED").Error // want `gorm.Update Update orders set status=p1 where id=p2 args "SHIPPED",id on tx tx`
	})
}
