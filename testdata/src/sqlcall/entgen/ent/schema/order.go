// Package schema declares the entities of the ent client the test cases use.
package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Order is a customer's order.
type Order struct{ ent.Schema }

func (Order) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("user_id"),
		field.String("status").Default("pending"),
		field.Int("version").Default(0),
		field.Int64("amount"),
	}
}

// Account holds a user's balance.
type Account struct{ ent.Schema }

func (Account) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("user_id"),
		field.Int64("balance"),
	}
}

// Grant records a voucher given to a user, once.
type Grant struct{ ent.Schema }

func (Grant) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("user_id"),
		field.Int64("voucher_id"),
	}
}

func (Grant) Indexes() []ent.Index {
	return []ent.Index{index.Fields("user_id", "voucher_id").Unique()}
}
