"""WSGI entry point, for tools that want one; the site itself is served by daphne (ASGI)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
application = get_wsgi_application()
