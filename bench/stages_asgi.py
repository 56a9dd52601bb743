"""The site's ASGI application with the stages of its requests timed (`server_stages.py`).

`http_bench.py --stages` serves this instead of `hearts_site.asgi:application`.
"""

import server_stages  # beside this file, which the benchmark puts on the server's path

from hearts_site.asgi import application

server_stages.install()

__all__ = ["application"]
