"""Diagnostics: the model, the rule registry and the rules."""
