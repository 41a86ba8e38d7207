// Package applog is a service's own logging facade: its level functions
// only log.
package applog

import "log/slog"

func Warn(msg string, args ...any) { slog.Warn(msg, args...) }
