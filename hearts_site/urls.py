"""Top-level URL routes."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from hearts_site.health import healthz, readyz
from hearts_site.metrics import metrics

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    # Prometheus's scrape: for METRICS_ALLOWED_IPS or METRICS_TOKEN only (hearts_site/metrics.py).
    path(settings.METRICS_PATH, metrics, name="prometheus-django-metrics"),
    # The language switcher posts to Django's set_language view (`set_language`).
    path("i18n/", include("django.conf.urls.i18n")),
    # The words of the site's scripts (locale/<language>/LC_MESSAGES/djangojs.po).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("games.accounts.urls")),
    path("", include("games.urls")),
]
