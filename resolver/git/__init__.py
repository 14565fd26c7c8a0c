"""The campaign's repository: the resolve flow (``flow``: lock, resolve, commit, tag, recover) and the
pull-request check (``prcheck``), which sees a player's pull request as GitHub does. Above the store,
beside the site; neither imports the other.
"""
