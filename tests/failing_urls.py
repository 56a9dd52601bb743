"""A URL configuration with one broken view, to see what a server error looks like."""

from django.urls import include, path


def broken_view(request):
    raise RuntimeError("a secret detail that must not reach the browser")


urlpatterns = [
    path("broken/", broken_view),
    path("", include("hearts_site.urls")),
]
