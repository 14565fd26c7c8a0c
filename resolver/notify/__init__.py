"""Turn news and reminders: who is told what, when, and through which channel (issue 25, part 1).

A layer of its own beside ``publish`` and ``git``: it reads the campaign through the store (the schedule,
the public state, who has orders on the branch, who is away by declaration, ``campaign/players.yaml``)
and talks to the outside world over HTTP (GitHub's REST API and the players' webhooks). It imports no
git: the commands hand it the moment
the turn opened, which the git layer reads from history. The resolver never calls it, so no clock and no
network come near a turn's result.

- ``settings``: the campaign's ``notifications:`` section and each faction's ``notify:`` in players.yaml;
- ``messages``: their words, one rendering a channel;
- ``ledger``: what was sent, when and to whom (``campaign/notifications.yaml``), so a rerun sends nothing
  twice;
- ``channels``: the HTTP deliveries (GitHub issues and comments, Discord, Slack, Matrix);
- ``run``: who owes orders and which message is due at a moment (the clock is passed in), and the two
  commands, ``campaign notify`` and ``campaign remind``.
"""
