"""``make bench``: the engine's benchmarks (``engine``: resolve, check and the PR check at several sizes,
each from a fresh process) and the site's (``site``: 50 and 500 turns against MkDocs' own floor)."""
