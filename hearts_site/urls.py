"""Top-level URL routes."""

from django.contrib import admin
from django.urls import include, path

from hearts_site.health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("games.accounts.urls")),
    path("", include("games.urls")),
]
