# The two commands a newcomer runs: `make demo` and `make test`.

.PHONY: demo test

# Run lockvet on the bundled examples and show what it finds.
demo:
	go build -o bin/lockvet ./cmd/lockvet
	cd examples && ../bin/lockvet ./... || [ $$? -eq 3 ]

# Run the whole test suite: the checks and the command, then the examples'
# integration test (it skips without redis-server and PostgreSQL unless
# LOCKVET_INTEGRATION=1, as CI sets).
test:
	go test -timeout 30m ./...
	cd examples && go vet ./... && go test -timeout 10m ./...
