"""The admin's one base for rows that are read, never edited by hand."""

from typing import TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

M = TypeVar("M", bound=Model)


class ReadOnlyAdmin(admin.ModelAdmin[M]):
    """Rows to inspect, never to edit by hand: the log is the truth, and the services keep it
    (or, for the records, `manage.py rebuild_stats` rewrites them from the log).

    A row is removed only with its whole match.
    """

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        return False
