"""The published campaign site: pages, maps and plots generated from the turn archive.

``build_site`` is the whole of ``campaign site``; see ``site.py`` for the folder layout.
"""

from .site import SiteReport, build_site

__all__ = ["SiteReport", "build_site"]
