"""The rule modules, one per family of codes; `rules.all` imports every one (registering them)."""
