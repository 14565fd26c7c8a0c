"""The published campaign site: pages, maps and plots generated from the turn archive.

``site.build_site`` is the whole of ``campaign site``; ``layout`` names the files it writes, which
``campaign new`` needs without the site's tools, so this package imports none of its modules itself.
"""
