"""Routes for the pages players use."""

from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
]
