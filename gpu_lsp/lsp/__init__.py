"""Editor features as pure functions over the IR; only `convert.py` speaks lsprotocol."""
