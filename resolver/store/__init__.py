"""The campaign on disk: ``campaign/`` and ``orders/`` in a repository folder.

``store`` reads and writes it (the archive included, in one switch-over a resolution); ``resolution``
resolves the turn that is due from it; ``replay`` replays and verifies the archive; ``views`` the
reports and order templates; ``schedule`` the deadlines. Sealing lives here too (``sealing`` for the
cryptography, ``keys`` for the GM's key commands, ``beacon`` for the dice's public randomness): what is
sealed is what the store writes, so the engine below never holds a key and the site above reads only
what the store made public. It imports ``core`` and ``engine``, never git or the site.
"""
