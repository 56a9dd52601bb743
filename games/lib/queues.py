"""The task queues (settings.TASKS) and which work goes on each.

Clocks must never wait behind long work, so each queue has workers of its own
(`manage.py worker --queues now`, `--queues long`; `manage.py serve` starts both):

- NOW: what is due at a moment and takes a moment: a timeout, one searching bot's card, the
  periodic sweep (which only queues and reads).
- LONG: what may take long: a tournament round finished by bots, e-mails, digests.
- BEFORE_SPLIT: where tasks were queued before the queues were split; the LONG workers take
  what is left there.
"""

NOW = "now"
LONG = "long"
BEFORE_SPLIT = "default"

# The queues each kind of worker takes.
WORKER_QUEUES = {NOW: (NOW,), LONG: (LONG, BEFORE_SPLIT)}
