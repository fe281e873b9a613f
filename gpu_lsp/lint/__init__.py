"""gpu-lint's batch side: configuration, file discovery, the process pool, fixes and report formats."""
