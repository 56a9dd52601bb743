"""Admin for the table chat: messages staff may hide, reports read with the messages around
them and closed (the message hidden, or left as it is: the reporter hears which), and chat
taken away from an account for a time (games/services/chat.py decides each)."""

from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.admin.base import ReadOnlyAdmin
from games.models import ChatBan, ChatMessage, ChatReport, ReportOutcome
from games.services import chat

# How many messages of the room the report shows before and after the one reported.
AROUND = 5


def _closed(request: HttpRequest, message_ids: list[int], outcome: str) -> str:
    """Close the reports of these messages as staff decided; say how many were closed."""
    assert isinstance(request.user, User)  # the admin is for signed-in staff
    closed = chat.close_reports(request.user, message_ids, outcome)
    return ngettext(
        "%(count)d report closed; its reporter has been told.",
        "%(count)d reports closed; their reporters have been told.",
        closed,
    ) % {"count": closed}


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin[ChatMessage]):
    """Messages to read; changed only by the actions (hide, show), never rewritten."""

    list_display = ["created_at", "match", "room", "author", "preset", "text", "hidden_by_staff"]
    list_filter = ["hidden_by_staff", "room"]
    search_fields = ["author__username", "text"]
    list_select_related = ["author", "match"]
    actions = ["hide", "show"]

    def has_change_permission(self, request: HttpRequest, obj: ChatMessage | None = None) -> bool:
        return bool(request.user.is_staff)  # for the actions; every field is read-only

    def get_readonly_fields(
        self, request: HttpRequest, obj: ChatMessage | None = None
    ) -> list[str]:
        return [field.name for field in ChatMessage._meta.fields]

    @admin.action(description=_("Hide these messages from everyone"))
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        ids = list(queryset.values_list("pk", flat=True))
        self.message_user(request, _closed(request, ids, ReportOutcome.HIDDEN))

    @admin.action(description=_("Show these messages again"))
    def show(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        queryset.update(hidden_by_staff=False)


@admin.register(ChatReport)
class ChatReportAdmin(ReadOnlyAdmin[ChatReport]):
    """Reports, each with the messages around the one reported; the actions close them."""

    list_display = ["created_at", "reporter", "author", "reported_words", "outcome", "hidden"]
    list_filter = ["outcome"]
    list_select_related = ["reporter", "message__author"]
    readonly_fields = [
        "message",
        "reporter",
        "created_at",
        "around",
        "outcome",
        "closed_at",
        "closed_by",
    ]
    actions = ["hide_reported", "keep_reported"]

    def has_change_permission(self, request: HttpRequest, obj: ChatReport | None = None) -> bool:
        return bool(request.user.is_staff)  # for the action and the page; nothing is edited

    @admin.display(description=_("author"))
    def author(self, report: ChatReport) -> str:
        return str(report.message.author)

    @admin.display(description=_("message"))
    def reported_words(self, report: ChatReport) -> str:
        return report.message.preset or report.message.text

    @admin.display(description=_("hidden"), boolean=True)
    def hidden(self, report: ChatReport) -> bool:
        return report.message.hidden_by_staff

    @admin.display(description=_("the messages around it"))
    def around(self, report: ChatReport) -> SafeString:
        message = report.message
        room = ChatMessage.objects.filter(match_id=message.match_id, room=message.room)
        room = room.select_related("author")
        before = room.filter(created_at__lte=message.created_at).exclude(pk=message.pk)
        after = room.filter(created_at__gte=message.created_at).exclude(pk=message.pk)
        shown = [
            *reversed(before.order_by("-created_at", "-id")[:AROUND]),
            message,
            *after.order_by("created_at", "id")[:AROUND],
        ]
        # The template escapes every word; what it renders is safe to show as it is.
        return render_to_string(
            "admin/games/_chat_around.html", {"around": shown, "reported": message}
        )

    @admin.action(description=_("Hide the reported messages from everyone"))
    def hide_reported(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        ids = list(queryset.values_list("message_id", flat=True))
        self.message_user(request, _closed(request, ids, ReportOutcome.HIDDEN))

    @admin.action(description=_("Close the reports, leaving the messages as they are"))
    def keep_reported(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        ids = list(queryset.values_list("message_id", flat=True))
        self.message_user(request, _closed(request, ids, ReportOutcome.KEPT))


@admin.register(ChatBan)
class ChatBanAdmin(admin.ModelAdmin[ChatBan]):
    """Chat taken away from an account until a time: it reads, and writes nothing."""

    list_display = ["user", "until", "reason", "created_by", "created_at"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    list_select_related = ["user", "created_by"]

    def save_model(self, request: HttpRequest, obj: ChatBan, form: object, change: bool) -> None:
        if not change:
            obj.created_by_id = request.user.pk
        super().save_model(request, obj, form, change)
