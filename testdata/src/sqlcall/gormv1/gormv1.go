// Package gormv1 holds statements built with gorm before v2
// (github.com/jinzhu/gorm), read like v2's: the same chain and finishers.
package gormv1

import "github.com/jinzhu/gorm"

type Order struct {
	ID     int64
	Status string
}

func writes(db *gorm.DB, o *Order, id int64) error {
	db.Create(o)                                                                                                          // want `gorm.Create Insert orders on db$`
	db.Save(o)                                                                                                            // want `gorm.Save Update orders set from a value on db$`
	db.Model(&Order{}).Where("id = ?", id).Update("status", "paid")                                                       // want `gorm.Update Update orders set status=p1 where id=p2 args "paid",id on db$`
	res := db.Model(&Order{}).Where("id = ? AND status = ?", id, "new").Updates(map[string]interface{}{"status": "paid"}) // want `gorm.Updates Update orders set status=p1 where id=p2,status=p3 args "paid",id,"new" on db checked$`
	if res.Error != nil || res.RowsAffected == 0 {
		return res.Error
	}
	db.Exec("UPDATE orders SET status = ? WHERE id = ?", "paid", id) // want `gorm.Exec Update orders set status=p1 where id=p2 args "paid",id on db$`
	tx := db.Begin()
	tx.Model(o).Update("status", "paid") // want `gorm.Update Update orders set status=p1 args "paid" on Begin# tx$`
	return tx.Commit().Error
}
