"""The table chat: who reads and writes which room, what a message may hold, phrases in the
reader's language, mutes and blocks, limits, and the routes' answers (games/services/chat.py,
games/views/chat.py)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games.models import ChatBan, ChatMessage, ChatReport, Match, Mute, ReportOutcome, Room
from games.services import chat, people
from tests.factories import CSRF_FIELD, HTMX, client_for, make_match
from tests.notify_helpers import notices_sent
from tests.records_helpers import finished_match
from tests.tournaments.test_duplicate_deal_secrecy import start_round_of_two_tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_limits")]


def say(user, match: Match, htmx: bool = True, **data):
    return client_for(user).post(
        reverse("chat_say", args=[match.pk]), data, **(HTMX if htmx else {})
    )


def region(user, match: Match) -> str:
    return client_for(user).get(reverse("chat", args=[match.pk]), **HTMX).content.decode()


@pytest.fixture
def carol(make_user):
    return make_user("carol", "Carol")


@pytest.fixture
def table(alice, bob) -> Match:
    return make_match(alice, people=[bob])


def test_a_phrase_reads_in_each_readers_language(table, alice, bob):
    bob.profile.language = "id"
    bob.profile.save(update_fields=["language"])
    assert say(alice, table, preset="good_luck").status_code == 200
    assert ChatMessage.objects.get().preset == "good_luck"  # the key, not the words
    assert "Good luck!" in region(alice, table)
    assert "Semoga beruntung!" in region(bob, table)


def test_free_text_is_stored_stripped_and_shown_as_text(table, alice, bob):
    assert (
        say(alice, table, text="  <a href='https://x.example'>hi</a> <b>x</b>  ").status_code == 200
    )
    assert ChatMessage.objects.get().text == "<a href='https://x.example'>hi</a> <b>x</b>"
    html = region(bob, table)
    assert "&lt;a href=&#x27;https://x.example&#x27;&gt;hi&lt;/a&gt; &lt;b&gt;x&lt;/b&gt;" in html
    assert "https://x.example'>" not in html and "<b>x</b>" not in html


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Write a message"),
        ("   ", "Write a message"),
        ("x" * 301, "at most 300 characters; this one has 301"),
        ("line\nbreak", "control characters"),
        ("tab\there", "control characters"),
        ("bell\x07", "control characters"),
        ("del\x7f", "control characters"),
    ],
)
def test_bad_text_is_refused_with_its_reason_on_the_page(table, alice, text, reason):
    version = table.version
    response = say(alice, table, text=text)
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not ChatMessage.objects.exists()
    table.refresh_from_db()
    assert table.version == version


def test_three_hundred_characters_are_taken(table, alice):
    assert say(alice, table, text="é" * 300).status_code == 200


def test_a_refusal_without_htmx_shows_the_match_page_with_the_reason(table, alice):
    response = say(alice, table, htmx=False, text="x" * 301)
    assert response.status_code == 400
    assert "at most 300 characters" in response.content.decode()
    assert 'id="table"' in response.content.decode()


def test_without_htmx_a_message_goes_back_to_the_match_page(table, alice):
    response = say(alice, table, htmx=False, preset="thanks")
    assert response.status_code == 302
    assert response["Location"] == reverse("match", args=[table.pk]) + "#chat"


def test_an_unknown_phrase_and_both_at_once_are_refused(table, alice):
    assert say(alice, table, preset="nonsense").status_code == 400
    assert say(alice, table, preset="thanks", text="hi").status_code == 400
    assert not ChatMessage.objects.exists()


def test_the_creator_may_turn_free_text_off(alice, bob):
    match = make_match(alice, people=[bob], free_chat=False)
    response = say(bob, match, text="hello")
    assert response.status_code == 403
    assert "preset phrases only" in response.content.decode()
    assert say(bob, match, preset="thanks").status_code == 200
    assert 'name="text"' not in region(bob, match)


def test_the_lobby_form_offers_the_switch_ticked(alice):
    client = client_for(alice)
    html = client.get(reverse("lobby")).content.decode()
    assert 'name="free_chat"' in html
    assert 'name="free_chat" checked' in html or "checked" in html.split('name="free_chat"')[1][:80]
    fields = {"players": 4, "target": 100, "moon": "ask", "bots": 0}
    client.post(reverse("create_match"), {**fields, "free_chat": "on"})
    client.post(reverse("create_match"), fields)  # an unticked box is not sent: off
    assert list(Match.objects.order_by("pk").values_list("free_chat", flat=True)) == [True, False]


def test_a_duplicate_deal_tournament_table_takes_phrases_only(db):
    _, (first, _second) = start_round_of_two_tables()
    match = first.match
    player = match.seats.get(position=0).user
    assert say(player, match, text="hello").status_code == 403
    assert say(player, match, preset="good_luck").status_code == 200
    assert not chat.standing(player, match).free_text


def test_a_sealed_table_has_no_chat_for_the_other_tables_players(db):
    _, (first, second) = start_round_of_two_tables()
    own = first.match.seats.get(position=0).user
    sibling = second.match.seats.get(position=0).user
    say(own, first.match, preset="oops")
    assert "Oops!" in region(own, first.match)
    assert "Oops!" not in region(sibling, first.match)
    assert say(sibling, first.match, preset="oops").status_code == 403


def test_spectators_have_their_own_room_that_players_do_not_read_in_play(table, alice, carol):
    assert say(carol, table, text="go alice").status_code == 200
    assert ChatMessage.objects.get().room == Room.SPECTATORS
    assert "go alice" in region(carol, table)
    assert "go alice" not in region(alice, table)
    say(alice, table, text="players only")
    assert "players only" not in region(carol, table)


def test_after_the_match_each_room_is_read_by_all_who_may_look(alice, carol):
    match = finished_match(alice)
    ChatMessage.objects.create(
        match=match,
        author=carol,
        room=Room.SPECTATORS,
        text="watching",
        created_at=match.created_at,
    )
    ChatMessage.objects.create(
        match=match, author=alice, room=Room.PLAYERS, text="gg all", created_at=match.created_at
    )
    assert "watching" in region(alice, match) and "gg all" in region(alice, match)
    assert "watching" in region(carol, match) and "gg all" in region(carol, match)


def test_a_private_match_is_not_found_to_outsiders(alice, bob, carol):
    match = make_match(alice, people=[bob], private=True)
    say(alice, match, text="secret words")
    client = client_for(carol)
    assert client.get(reverse("chat", args=[match.pk])).status_code == 404
    assert say(carol, match, text="hi").status_code == 404
    assert say(carol, match, text="").status_code == 404  # not "bad input": no such match
    assert client.post(reverse("chat_mute", args=[match.pk]), {"name": "Alice"}).status_code == 404
    assert ChatMessage.objects.count() == 1


def test_a_block_hides_messages_both_ways(table, alice, bob):
    say(alice, table, text="from alice")
    say(bob, table, text="from bob")
    people.block(alice, bob)
    assert "from bob" not in region(alice, table)
    assert "from alice" not in region(bob, table)
    assert "from alice" in region(alice, table)


def test_a_mute_hides_the_authors_messages_for_the_muter_alone(table, alice, bob, carol):
    say(bob, table, text="from bob")
    client = client_for(alice)
    response = client.post(reverse("chat_mute", args=[table.pk]), {"name": "Bob"}, **HTMX)
    assert response.status_code == 200
    assert "from bob" not in response.content.decode()
    assert "Unmute" in response.content.decode()
    assert "from bob" in region(bob, table)
    other = make_match(bob, people=[alice])
    say(bob, other, text="elsewhere")
    assert "elsewhere" not in region(alice, other)  # everywhere
    client.post(reverse("chat_unmute", args=[table.pk]), {"name": "Bob"}, **HTMX)
    assert "from bob" in region(alice, table)


def test_oneself_cannot_be_muted(table, alice):
    response = client_for(alice).post(
        reverse("chat_mute", args=[table.pk]), {"name": "Alice"}, **HTMX
    )
    assert response.status_code == 400


def test_hidden_by_staff_is_shown_to_nobody(table, alice, bob):
    say(alice, table, text="rude words")
    ChatMessage.objects.update(hidden_by_staff=True)
    assert "rude words" not in region(bob, table)


def test_a_flood_is_refused_with_429(table, alice):
    for _ in range(chat.BURST_LIMIT):
        assert say(alice, table, preset="thanks").status_code == 200
    response = say(alice, table, preset="thanks")
    assert response.status_code == 429
    assert response["Retry-After"]
    assert "too fast" in response.content.decode()
    assert ChatMessage.objects.count() == chat.BURST_LIMIT


def test_posting_needs_a_csrf_token(table, alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    url = reverse("chat_say", args=[table.pk])
    assert client.post(url, {"preset": "thanks"}).status_code == 403
    page = client.get(reverse("match", args=[table.pk])).content.decode()
    token = CSRF_FIELD.search(page.split('id="chat"')[1]).group(1)  # the chat's own forms carry it
    assert client.post(url, {"preset": "thanks", "csrfmiddlewaretoken": token}).status_code == 302
    assert ChatMessage.objects.count() == 1


def test_signed_out_visitors_are_sent_to_sign_in(table):
    response = Client().post(reverse("chat_say", args=[table.pk]), {"preset": "thanks"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert Client().get(reverse("chat", args=[table.pk])).status_code == 302
    assert not ChatMessage.objects.exists()


def test_the_post_routes_refuse_get(table, alice):
    client = client_for(alice)
    for name in ("chat_say", "chat_mute", "chat_unmute"):
        assert client.get(reverse(name, args=[table.pk])).status_code == 405


def test_the_match_page_shows_the_chat_with_its_forms(table, alice):
    say(alice, table, preset="have_fun")
    html = client_for(alice).get(reverse("match", args=[table.pk])).content.decode()
    assert 'id="chat"' in html and "Have fun!" in html
    assert 'maxlength="300"' in html and 'name="preset"' in html


def test_the_record_holds_the_chat_its_viewer_may_read(table, alice, bob, carol):
    say(alice, table, preset="good_luck")
    say(bob, table, text="you too")
    say(carol, table, text="spectating")
    bob.profile.language = "su"
    bob.profile.save(update_fields=["language"])

    def record_of(user):
        return client_for(user).get(reverse("match_record", args=[table.pk])).json()["chat"]

    for_bob = record_of(bob)
    assert [(m["room"], m["author"]) for m in for_bob] == [("players", "Alice"), ("players", "Bob")]
    assert for_bob[0]["phrase"] == "good_luck" and for_bob[0]["words"] == "Mugia untung!"
    assert for_bob[1]["text"] == "you too"
    assert [m.get("text") for m in record_of(carol)] == ["spectating"]  # in play: their room
    people.block(alice, bob)
    assert [m["author"] for m in record_of(alice)] == ["Alice"]


def report(user, match: Match, message_id):
    url = reverse("chat_report", args=[match.pk])
    return client_for(user).post(url, {"message": message_id}, **HTMX)


def test_a_reader_reports_a_message_once_and_staff_hide_it(table, alice, bob, make_user):
    say(bob, table, text="rude words")
    message = ChatMessage.objects.get()
    response = report(alice, table, message.pk)
    assert response.status_code == 200 and "staff will read" in response.content.decode()
    report(alice, table, message.pk)
    assert ChatReport.objects.count() == 1
    assert report(bob, table, message.pk).status_code == 400  # one's own
    staff = client_for(make_user("boss", "Boss", is_staff=True, is_superuser=True))
    page = staff.get(reverse("admin:games_chatreport_change", args=[ChatReport.objects.get().pk]))
    assert "rude words" in page.content.decode()
    staff.post(
        reverse("admin:games_chatreport_changelist"),
        {"action": "hide_reported", "_selected_action": [ChatReport.objects.get().pk]},
    )
    assert ChatMessage.objects.get().hidden_by_staff
    assert "rude words" not in region(alice, table)
    closed = ChatReport.objects.get()
    assert closed.outcome == ReportOutcome.HIDDEN and closed.closed_by.username == "boss"


REPORT_KEYS = ("match_id", "user_ids", "kind")


def test_staff_close_reports_leaving_the_message_and_each_reporter_hears_once(
    table, alice, bob, carol, make_user, django_capture_on_commit_callbacks
):
    say(bob, table, text="borderline")
    message = ChatMessage.objects.get()
    table.status = "finished"  # once over, the spectators read the players' room too
    table.save(update_fields=["status"])
    report(alice, table, message.pk)
    report(carol, table, message.pk)
    staff = client_for(make_user("boss", "Boss", is_staff=True, is_superuser=True))
    changelist = reverse("admin:games_chatreport_changelist")
    open_ids = list(ChatReport.objects.values_list("pk", flat=True))

    def keep() -> None:
        staff.post(changelist, {"action": "keep_reported", "_selected_action": open_ids})

    [told] = notices_sent(django_capture_on_commit_callbacks, keep, keys=REPORT_KEYS)
    assert told["match_id"] == table.pk and told["kind"] == "report_kept"
    assert sorted(told["user_ids"]) == sorted([alice.pk, carol.pk])
    assert not ChatMessage.objects.get().hidden_by_staff
    assert set(ChatReport.objects.values_list("outcome", flat=True)) == {ReportOutcome.KEPT}
    # Closed reports are closed: hiding the message later tells nobody again.
    assert (
        notices_sent(
            django_capture_on_commit_callbacks,
            lambda: staff.post(
                reverse("admin:games_chatmessage_changelist"),
                {"action": "hide", "_selected_action": [message.pk]},
            ),
        )
        == []
    )
    assert ChatMessage.objects.get().hidden_by_staff
    assert "borderline" not in region(alice, table)
    listing = staff.get(changelist, {"outcome": ReportOutcome.KEPT}).content.decode()
    assert "borderline" in listing and "Left as it is" in listing


def test_hiding_a_reported_message_from_the_messages_list_closes_its_reports(
    table, alice, bob, make_user, django_capture_on_commit_callbacks
):
    say(bob, table, text="rude words")
    message = ChatMessage.objects.get()
    report(alice, table, message.pk)
    staff = client_for(make_user("boss", "Boss", is_staff=True, is_superuser=True))

    def hide() -> None:
        response = staff.post(
            reverse("admin:games_chatmessage_changelist"),
            {"action": "hide", "_selected_action": [message.pk]},
            follow=True,
        )
        assert "1 report closed; its reporter has been told." in response.content.decode()

    [told] = notices_sent(django_capture_on_commit_callbacks, hide, keys=REPORT_KEYS)
    assert told == {"match_id": table.pk, "user_ids": [alice.pk], "kind": "report_hidden"}
    assert ChatReport.objects.get().outcome == ReportOutcome.HIDDEN


def test_the_reporter_hears_the_outcome_in_their_own_language():
    from django.utils.translation import override

    from games.notifications.notices import notice_words

    with override("en"):
        subject, text = notice_words("report_hidden", "", 7)
    assert text == "Staff read the message you reported in match 7 and hid it from everyone."
    assert subject == text.rstrip(".")
    with override("id"):
        assert notice_words("report_kept", "", 7)[1] != notice_words("report_hidden", "", 7)[1]
        assert "7" in notice_words("report_kept", "", 7)[1]


def test_a_message_one_may_not_read_cannot_be_reported(table, alice, bob, carol):
    say(carol, table, text="from the stands")  # the spectators' room: not the players'
    message = ChatMessage.objects.get()
    assert report(alice, table, message.pk).status_code == 404
    assert report(alice, table, 10**6).status_code == 404
    assert report(alice, table, "x").status_code == 400
    assert not ChatReport.objects.exists()


def test_the_admin_shows_the_messages_around_the_reported_one_escaped(table, alice, bob, make_user):
    for n in range(8):
        say(alice if n % 2 else bob, table, text=f"line {n} <i>x</i>")
        ChatMessage.objects.filter(text=f"line {n} <i>x</i>").update(
            created_at=table.created_at + timedelta(seconds=n)
        )
    reported = ChatMessage.objects.get(text="line 6 <i>x</i>")
    made = ChatReport.objects.create(message=reported, reporter=alice, created_at=table.created_at)
    staff = client_for(make_user("boss", "Boss", is_staff=True, is_superuser=True))
    html = staff.get(reverse("admin:games_chatreport_change", args=[made.pk])).content.decode()
    assert "line 1 &lt;i&gt;x&lt;/i&gt;" in html and "line 7" in html
    assert "line 0" not in html  # five before it, not more
    assert "<i>x</i>" not in html


def test_staff_may_take_chat_away_for_a_time(table, alice, bob, clock):
    ChatBan.objects.create(user=bob, until=clock.now() + timedelta(hours=1))
    response = say(bob, table, preset="thanks")
    assert response.status_code == 403
    assert "taken chat away from you until" in response.content.decode()
    html = region(bob, table)
    assert "taken chat away" in html and 'name="preset"' not in html
    assert say(alice, table, preset="thanks").status_code == 200
    clock.advance(minutes=61)
    assert say(bob, table, preset="thanks").status_code == 200


def test_deleting_an_account_removes_its_chat(table, alice, bob):
    from games.accounts.deletion import delete_account

    say(bob, table, text="mine to take away")
    say(alice, table, text="alice stays")
    chat.mute(alice, "Bob")
    report(alice, table, ChatMessage.objects.get(author=bob).pk)
    delete_account(bob)
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["alice stays"]
    assert not ChatReport.objects.exists() and not Mute.objects.exists()


def test_the_region_reverses_its_routes_once_however_many_messages(table, alice, bob, monkeypatch):
    """Every page fetches the region on each message: the mute and report routes are the
    match's, not the message's, and are reversed once (a region of 50 messages did it 100
    times), with each message's forms still pointing at them."""
    import django.urls

    calls: list[str] = []
    real = django.urls.reverse  # `{% url %}` imports it as it renders

    def counted(name, *args, **kwargs):
        calls.append(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(django.urls, "reverse", counted)
    counts = []
    for _ in range(2):
        for _ in range(6):
            ChatMessage.objects.create(
                match=table, author=alice, room=Room.PLAYERS, text="hi", created_at=table.created_at
            )
        calls.clear()
        html = region(bob, table)
        counts.append(len(calls))
    assert counts[0] == counts[1], counts
    assert calls.count("chat_mute") == calls.count("chat_report") == 1, calls
    mute, report_url = (reverse(name, args=[table.pk]) for name in ("chat_mute", "chat_report"))
    assert html.count(f'hx-post="{mute}"') == html.count(f'hx-post="{report_url}"') == 12
