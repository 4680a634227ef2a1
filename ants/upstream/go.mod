module github.com/poolkit/poolkit/ants/upstream

go 1.25.0

replace github.com/poolkit/poolkit => ../..

require (
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/poolkit/poolkit v0.1.0
	github.com/stretchr/testify v1.10.0
	go.uber.org/goleak v1.3.0
	golang.org/x/sync v0.20.0
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
