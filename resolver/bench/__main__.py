"""``python -m resolver.bench``: the engine's benchmarks (``resolver.bench.engine``); the site's are
``python -m resolver.bench.site``. ``make bench`` runs both."""

import sys

from .engine import main

sys.exit(main())
