"""Small helpers the rest of games/ shares: each imports Python, Django and at most the engine,
never the models or anything above them (the layers in ARCHITECTURE.md).

- `clock.py`: the site's clock (tests move it)
- `cache_counts.py`, `limits.py`, `socket_slots.py`: counts in the shared cache, the caps on
  how often something is done and on a session's open sockets
- `card_words.py`: cards and suits in words, for pages, e-mails and refusals
- `converters.py`: the URL converters that match only what the database can hold
- `form_fields.py`: form fields the site's forms share
- `languages.py`: the site's languages, and the one to write to a player in
- `names.py`: the rules of display names
- `requests.py`: the type of the requests the views receive
"""
