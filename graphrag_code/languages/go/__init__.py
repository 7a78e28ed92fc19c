"""Go: packages, methods, interfaces (see `modules` for how names are made)."""
