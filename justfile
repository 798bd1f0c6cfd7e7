# Tasks for social-login. `just --list` shows them.

export TEST_POSTGRES_URL := env_var_or_default("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable")
export TEST_REDIS_URL := env_var_or_default("TEST_REDIS_URL", "redis://127.0.0.1:6379")

# The zero-setup demo in the browser.
demo:
    cargo run --release -- demo

# Run the service with the sample configuration (its secret_key placeholder is refused:
# put your own in the file, or export SOCIAL_LOGIN__SECRET_KEY="$(social-login gen-secret)").
serve:
    cargo run --release -- serve --config examples/social-login.toml

# Every test, against the local PostgreSQL.
test:
    cargo test --workspace

# Formatting and lints, as CI checks them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# What CI runs.
ci:
    bash .ci/run
