"""Rust: crates, modules, impls and traits."""
