# sellertrends: the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
BIN   := bin/sellertrends
GO    ?= go

.PHONY: run build web web-deps go-build test test-go test-web test-e2e dev lint bench bench-auth bench-trends bench-dashboard fuzz clean

run: build            ## build everything and start the app on http://localhost:3000 (SQLite under ./data)
	./$(BIN) serve

build: web go-build   ## leave the binary at bin/sellertrends

web-deps:
	@cd web && if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then npm install --no-audit --no-fund; fi

web: web-deps
	cd web && npm run build

go-build:
	@mkdir -p web/dist && touch web/dist/.keep
	$(GO) build -o $(BIN) ./cmd/sellertrends

test:                 ## every test: Go (SQLite + PostgreSQL), frontend unit tests, browser tests
	bash scripts/test.sh

test-go:
	@mkdir -p web/dist && touch web/dist/.keep
	$(GO) test -count=1 ./...

dev:                  ## Go API on :3000 and Vite with hot reload on :5173 (proxying /api to Go)
	bash scripts/dev.sh

lint:
	bash scripts/lint.sh

fuzz:                 ## every Go fuzz target, 20,000 inputs each (make fuzz N=200000x, or a duration: N=60s)
	bash scripts/fuzz.sh $(N)

bench: bench-auth bench-trends bench-dashboard

bench-auth:
	bash scripts/bench-auth.sh

bench-trends:
	bash scripts/bench-trends.sh

bench-dashboard:
	bash scripts/bench-dashboard.sh

clean:
	rm -rf bin web/dist
