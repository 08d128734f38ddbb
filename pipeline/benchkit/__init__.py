"""What every benchmark shares: figures, options, best-of timing, simulated inputs.

Imports nothing of ours, so the CLI's benchmarks (``pipeline.cli.bench``) and the
dashboard's (``dashboard.bench``) both use it."""
