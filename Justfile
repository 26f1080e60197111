# Common tasks. `just --list` shows them; each is a thin wrapper over hack/.

# Build smile, smile-controller and the static smile-wrapper into bin/
build:
    hack/build.sh

# Build the offline base image smile-base:latest (no registry needed)
image:
    hack/build-image.sh

# Run the whole test suite (unit and end-to-end, on the real Docker engine)
test *ARGS:
    hack/test.sh {{ARGS}}

# Check examples/quickstart with the literal learner and print the report's path
run:
    hack/quickstart.sh

# go vet and gofmt check
lint:
    go vet ./...
    test -z "$(gofmt -l .)"

# Format the code
fmt:
    gofmt -w .

# Print the benchmark tables (config, tutorial, container, loop overhead)
bench:
    hack/bench.sh
