"""Top-level URL routes."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("games.accounts.urls")),
    path("", include("games.urls")),
]
