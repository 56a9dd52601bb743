"""Languages: every marked string translated, pages and e-mails in the reader's language.

The catalogues (locale/<language>/LC_MESSAGES/django.po) are compared with the strings of
the source found in pure Python (`tests.i18n_sources`, as makemessages finds them); pages
rendered in Indonesian and Sundanese must show none of the catalogue's English.
"""

import re
from html import unescape
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.utils.html import strip_tags

from games.models import Entry, Profile
from games.notifications import mail as site_mail
from games.services import people
from tests.conftest import PASSWORD
from tests.i18n_sources import (
    ROOT,
    Message,
    all_messages,
    all_script_messages,
    python_messages,
    script_messages,
    template_messages,
)
from tests.notify_helpers import START, run_due_tasks
from tests.records_helpers import constructed_match
from tests.tournament_helpers import make_tournament

TRANSLATED = ("id", "su")
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "id": "nplurals=1; plural=0;",
    "su": "nplurals=1; plural=0;",
}
# `%(name)s`, `%d`, `%%`: what a translation must carry over exactly.
PLACEHOLDER = re.compile(r"%(?:\([A-Za-z_]+\))?[sd]|%%")


DOMAINS = {"django": all_messages, "djangojs": all_script_messages}


def catalogue(language: str, domain: str = "django") -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))


def catalogue_problems(language: str, source: list[Message], po: polib.POFile) -> list[str]:
    """Say what is wrong with one catalogue, one line a problem, naming where each string is."""
    wanted = {message.key: message for message in source}
    entries = {(entry.msgctxt, entry.msgid): entry for entry in po if not entry.obsolete}
    problems = [
        f"{language}: missing {key[1]!r} ({wanted[key].where})"
        for key in sorted(wanted.keys() - entries.keys(), key=str)
    ]
    problems += [
        f"{language}: {key[1]!r} is in the catalogue but no longer in the source"
        for key in sorted(entries.keys() - wanted.keys(), key=str)
    ]
    problems += [f"{language}: obsolete entry {entry.msgid!r}" for entry in po if entry.obsolete]
    for key in sorted(wanted.keys() & entries.keys(), key=str):
        entry, message = entries[key], wanted[key]
        if (entry.msgid_plural or None) != message.plural:
            problems.append(f"{language}: {key[1]!r} has another plural in the source")
        if language not in TRANSLATED:
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"{language}: {key[1]!r} is marked fuzzy")
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        if not texts or not all(text.strip() for text in texts):
            problems.append(f"{language}: {key[1]!r} is not translated ({message.where})")
            continue
        allowed = set(PLACEHOLDER.findall(entry.msgid)) | set(
            PLACEHOLDER.findall(entry.msgid_plural or "")
        )
        for text in texts:
            used = set(PLACEHOLDER.findall(text))
            lost = set(PLACEHOLDER.findall(entry.msgid)) - used if not entry.msgid_plural else set()
            if used - allowed or lost:
                problems.append(
                    f"{language}: {key[1]!r} translated with placeholders {sorted(used)}, "
                    f"not {sorted(allowed)}"
                )
    return problems


# ----- the catalogues against the source ------------------------------------------------------


@pytest.mark.parametrize("domain", list(DOMAINS))
@pytest.mark.parametrize("language", ["en", *TRANSLATED])
def test_the_catalogue_holds_every_string_of_the_source_translated(language, domain):
    source = DOMAINS[domain]()
    assert source, domain
    problems = catalogue_problems(language, source, catalogue(language, domain))
    assert not problems, (
        f"{len(problems)} problem(s); run `manage.py makemessages` (see the README) and "
        "translate:\n" + "\n".join(problems)
    )


@pytest.mark.parametrize("domain", list(DOMAINS))
@pytest.mark.parametrize("language", list(PLURAL_FORMS))
def test_each_catalogue_says_its_plural_forms(language, domain):
    po = catalogue(language, domain)
    assert po.metadata["Plural-Forms"] == PLURAL_FORMS[language]
    assert po.metadata["Language"] == language
    assert not po.metadata_is_fuzzy  # a fuzzy header is dropped when compiled


def test_the_source_is_read_as_makemessages_reads_it():
    template = (
        '{% load i18n %}<h1>{% translate "Tricks played" %}</h1>'
        "{% blocktranslate count counter=n trimmed %}\n  {{ counter }} card\n"
        "{% plural %}{{ counter }} cards{% endblocktranslate %}"
        '{% translate "Spring" context "season" %}'
    )
    found = {(m.context, m.msgid, m.plural) for m in template_messages(template, "t.html")}
    assert found == {
        (None, "Tricks played", None),
        (None, "%(counter)s card", "%(counter)s cards"),
        ("season", "Spring", None),
    }
    module = (
        "from django.utils.translation import gettext_lazy as _, ngettext, gettext_noop\n"
        "A = _('Days away')\n"
        "B = ngettext('%(n)d day', '%(n)d days', 2)\n"
        "C = gettext_noop('This field is required.')\n"
        "D = print('not marked')\n"
    )
    found = {(m.msgid, m.plural) for m in python_messages(module, "m.py")}
    assert found == {
        ("Days away", None),
        ("%(n)d day", "%(n)d days"),
        ("This field is required.", None),
    }


def test_the_scripts_are_read_as_makemessages_reads_them():
    script = (
        'var a = gettext("Your turn in match %(match)s");\n'
        "var b = ngettext('(and %(count)s more)', \"(and %(count)s more)\", n);\n"
        'var c = pgettext("pass direction", "left");\n'
        "var d = window.gettext || function (text) { return text; };\n"
        'var e = console.log("not marked");\n'
    )
    found = {(m.context, m.msgid, m.plural) for m in script_messages(script, "x.js")}
    assert found == {
        (None, "Your turn in match %(match)s", None),
        (None, "(and %(count)s more)", "(and %(count)s more)"),
        ("pass direction", "left", None),
    }


def test_a_string_missing_from_a_catalogue_is_named_with_where_it_is():
    source = [
        Message("Tricks played", None, None, "templates/games/tricks.html"),
        Message("Not in any catalogue yet", None, None, "templates/games/new.html"),
    ]
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Tricks played", msgstr="Trik anu dimaénkeun"))
    po.append(polib.POEntry(msgid="Gone from the source", msgstr="Leungit"))
    po.append(polib.POEntry(msgid="Untranslated %(name)s", msgstr=""))
    source.append(Message("Untranslated %(name)s", None, None, "x.html"))
    problems = catalogue_problems("su", source, po)
    assert problems == [
        "su: missing 'Not in any catalogue yet' (templates/games/new.html)",
        "su: 'Gone from the source' is in the catalogue but no longer in the source",
        "su: 'Untranslated %(name)s' is not translated (x.html)",
    ]
    po[0].msgstr = "Trik %(name)s"
    assert any("placeholders" in line for line in catalogue_problems("su", source, po))


def test_the_catalogues_are_compiled_in_python_and_again_when_changed(tmp_path, settings):
    messages_dir = tmp_path / "su" / "LC_MESSAGES"
    messages_dir.mkdir(parents=True)
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Plural-Forms": "nplurals=1;"}
    po.append(polib.POEntry(msgid="Hello", msgstr="Sampurasun"))
    po.save(str(messages_dir / "django.po"))
    settings.LOCALE_PATHS = [tmp_path]
    call_command("compiletranslations", verbosity=0)
    mo = messages_dir / "django.mo"
    assert polib.mofile(str(mo)).find("Hello").msgstr == "Sampurasun"
    po[0].msgstr = "Wilujeng"
    po.save(str(messages_dir / "django.po"))
    stamp = mo.stat().st_mtime - 10
    import os

    os.utime(mo, (stamp, stamp))  # the .po is newer than the .mo: compile again
    call_command("compiletranslations", verbosity=0)
    assert polib.mofile(str(mo)).find("Hello").msgstr == "Wilujeng"


def test_compiled_catalogues_are_not_kept_in_the_repository():
    ignored = (ROOT / ".gitignore").read_text()
    assert "*.mo" in ignored.splitlines()


# ----- pages ----------------------------------------------------------------------------------

# Templates rewritten elsewhere and not marked yet: their English is not this test's business
# until they load the i18n tags (then their strings are in the catalogues and checked).
NOT_YET_MARKED = [
    path
    for path in (ROOT / "templates").rglob("*.html")
    if "{% load i18n" not in path.read_text() and "{% translate" not in path.read_text()
]


def _unmarked_text() -> str:
    return " ".join(" ".join(path.read_text().split()) for path in NOT_YET_MARKED)


# Placeholders that stand for numbers; any other stands for a name of a few words.
NUMBERS = {"count", "counter", "number", "id", "hand", "trick", "players", "size", "minutes",
           "days", "total", "steps", "pages", "seat", "match", "left", "limit"}  # fmt: skip


def _value(placeholder: str) -> str:
    name = placeholder[2:-2] if placeholder.startswith("%(") else ""
    if placeholder.endswith("d") or name in NUMBERS:
        return r"[−\d][\d.,]*"
    return r"\S+(?:\s\S+){0,3}?"


def _words(text: str) -> str:
    return r"\s+".join(map(re.escape, re.split(r"\s+", text)))


def _english_pattern(msgid: str) -> re.Pattern[str]:
    """Match the English of a msgid as a page shows it: tags dropped, a value for each
    placeholder, whitespace as it comes."""
    text = unescape(strip_tags(msgid)).replace("%%", "%")
    pieces = re.split(f"({PLACEHOLDER.pattern})", text)
    body = "".join(
        _value(piece)
        if PLACEHOLDER.fullmatch(piece)
        else r"\s+".join(map(re.escape, re.split(r"\s+", piece)))
        for piece in pieces
        if piece
    )
    return re.compile(rf"(?<!\w){body}(?!\w)")


# The site's name, also the English of the suit: a name every language keeps.
PROPER_NAMES = {"Hearts"}


def english_leftovers(html: str, language: str) -> list[str]:
    """Return the catalogue's English strings the page's main content and header still show."""
    main = html.split('<main id="main"', 1)[1].split(">", 1)[1].split("</main>", 1)[0]
    header = (
        html.split('<header class="site-header"', 1)[1].split("</header>", 1)[0]
        if ('<header class="site-header"' in html)
        else ""
    )
    text = " ".join(unescape(re.sub(r"<[^>]*>", " ", ">" + main + " >" + header)).split())
    unmarked = _unmarked_text()
    found = []
    for entry in catalogue(language):
        if entry.obsolete or not entry.msgid.strip() or entry.msgid in PROPER_NAMES:
            continue
        translated = entry.msgstr_plural.get(0) if entry.msgid_plural else entry.msgstr
        english = [entry.msgid] + ([entry.msgid_plural] if entry.msgid_plural else [])
        for msgid in english:
            plain = unescape(strip_tags(msgid))
            if msgid == translated or not re.search(r"[A-Za-z]{2}", plain):
                continue
            shown = [match.group(0) for match in _english_pattern(msgid).finditer(text)]
            # What a template not marked yet says literally is left for when it is marked.
            if any(words not in unmarked for words in shown):
                found.append(msgid)
    return found


@pytest.fixture
def pages(alice, bob, make_user):
    """A tournament, a finished match and the pages to look at, with whom to look."""
    tournament = make_tournament(name="Piala", slug="piala", registration_open=True)
    tournament.status = "registration"
    tournament.save()
    Entry.objects.create(tournament=tournament, user=bob)
    constructed_match([alice, bob, "easy", "normal"], [[(3, False, False), (13, False, True)]])
    carol = make_user("carol", "Carol")
    people.follow(bob, alice)
    people.block(bob, make_user("dave", "Dave"))
    return {
        "welcome": (None, reverse("home")),
        "login": (None, reverse("login")),
        "signup": (None, reverse("signup")),
        "password reset": (None, reverse("password_reset")),
        "not found": (None, "/no-such-page/"),
        "profile": (carol, reverse("profile")),
        "delete account": (carol, reverse("delete_account")),
        "tournaments": (alice, reverse("tournament_list")),
        "tournament": (alice, reverse("tournament", args=["piala"])),
        "leaderboard": (alice, reverse("leaderboard")),
        "player": (bob, "/players/Alice/"),
        "bot level": (None, reverse("bot_player", args=["easy"])),
        "friends": (bob, reverse("friends")),
        "friends, none yet": (carol, reverse("friends")),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_page_is_in_the_language_asked_for_with_no_english_left(pages, language):
    leftovers = {}
    for name, (user, url) in pages.items():
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        if user is not None:
            client.force_login(user)
        response = client.get(url)
        assert response.status_code == (404 if name == "not found" else 200), name
        assert response["Content-Language"] == language, name
        if found := english_leftovers(response.content.decode(), language):
            leftovers[name] = found
    assert not leftovers


@pytest.mark.django_db
def test_a_form_error_is_in_sundanese_too(client):
    response = client.post(reverse("signup"), {"username": "dewi"}, HTTP_ACCEPT_LANGUAGE="su")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Kolom ieu kudu dieusian." in html
    assert "This field is required." not in html
    assert not english_leftovers(html, "su")


@pytest.mark.django_db
def test_the_check_finds_english_left_on_a_page():
    html = (
        '<main id="main"><p>Points taken this hand</p><p>Trik 3</p><p>Match 12: scores</p>'
        "<p>Leungeun 2 nepi ka ayeuna</p></main>"
    )
    found = english_leftovers(html, "su")
    assert {"Points taken this hand", "Match %(id)s: scores"} <= set(found)
    assert "Hand %(hand)s so far" not in found


# ----- choosing the language ------------------------------------------------------------------


def login_page_language(client: Client) -> str:
    response = client.get(reverse("login"))
    return response["Content-Language"]


@pytest.mark.django_db
def test_without_a_choice_the_browser_language_is_used():
    assert login_page_language(Client(HTTP_ACCEPT_LANGUAGE="id-ID,id;q=0.9,en;q=0.5")) == "id"
    assert login_page_language(Client(HTTP_ACCEPT_LANGUAGE="su")) == "su"
    assert login_page_language(Client(HTTP_ACCEPT_LANGUAGE="fr")) == settings.LANGUAGE_CODE


@pytest.mark.django_db
def test_the_switcher_names_each_language_in_itself_and_posts_to_set_language():
    request = RequestFactory().get("/leaderboard/?players=4")
    with translation.override("su"):
        html = render_to_string("_language_switcher.html", request=request)
    assert f'action="{reverse("set_language")}"' in html
    assert 'name="next" value="/leaderboard/?players=4"' in html
    assert '<option value="su" lang="su" selected>Basa Sunda</option>' in html
    assert '<option value="id" lang="id">Bahasa Indonesia</option>' in html
    assert '<option value="en" lang="en">English</option>' in html
    assert "Ganti basa" in html and "csrfmiddlewaretoken" in html


@pytest.mark.django_db
def test_the_switcher_sets_the_language_for_a_visitor():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post(reverse("set_language"), {"language": "su", "next": "/accounts/login/"})
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert login_page_language(client) == "su"


@pytest.mark.django_db
def test_a_signed_in_players_choice_is_kept_and_follows_them(alice):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "su", "next": "/"})
    assert Profile.objects.get(user=alice).language == "su"
    # Another browser, asking for Indonesian: signing in brings the player's choice back.
    other = Client(HTTP_ACCEPT_LANGUAGE="id")
    assert login_page_language(other) == "id"
    other.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    response = other.get(reverse("profile"))
    assert response["Content-Language"] == "su"
    assert "Profil anjeun" in response.content.decode()
    # The cookie follows, so the pages stay in Sundanese after signing out.
    other.post(reverse("logout"))
    assert login_page_language(other) == "su"


@pytest.mark.django_db
def test_the_profile_page_sets_the_language(alice):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    data = {"display_name": "Alice", "auto_play_forced": "on", "language": "id"}
    response = client.post(reverse("profile"), data, follow=True)
    assert Profile.objects.get(user=alice).language == "id"
    assert response["Content-Language"] == "id"
    assert "Profil Anda sudah disimpan." in response.content.decode()
    # No choice: the browser's language again, whatever the switcher said before.
    client.post(reverse("set_language"), {"language": "su", "next": "/"})
    client.post(reverse("profile"), {**data, "language": ""})
    assert Profile.objects.get(user=alice).language == ""
    assert client.get(reverse("profile"))["Content-Language"] == "en"
    assert client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="id")["Content-Language"] == "id"


@pytest.mark.django_db
def test_a_new_player_keeps_the_language_they_signed_up_in():
    client = Client(HTTP_ACCEPT_LANGUAGE="su")
    data = {
        "username": "dewi",
        "display_name": "Dewi",
        "email": "",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    response = client.post(reverse("signup"), data)
    assert response.status_code == 302
    assert Profile.objects.get(user__username="dewi").language == "su"


# ----- e-mails --------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_limits")
def test_a_players_e_mail_is_in_their_language_whatever_the_request(
    alice, django_capture_on_commit_callbacks
):
    Profile.objects.filter(user=alice).update(language="su")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    new = "a-brand-new-passphrase"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("password_change"),
            {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        )
    assert response.status_code == 302 and response["Content-Language"] == "en"
    run_due_tasks(START)
    (notice,) = mail.outbox
    assert notice.subject == "Sandi akun Hearts anjeun geus robah"
    assert notice.body.startswith("Sampurasun Alice,")
    assert "kakara diganti" in notice.body
    html = notice.alternatives[0][0]
    assert '<html lang="su">' in html and "Pareuman" not in html  # no unsubscribing here
    assert "has just been changed" not in notice.body + html


@pytest.mark.django_db
def test_each_e_mail_is_written_in_its_recipients_language(alice, bob):
    Profile.objects.filter(user=alice).update(language="id")
    Profile.objects.filter(user=bob).update(language="su")
    alice.refresh_from_db()
    bob.refresh_from_db()
    with translation.override("en"):
        site_mail.send_password_reset(alice, "token")
        site_mail.send_address_changed(bob, "old@example.com")
        assert translation.get_language() == "en"
    reset, changed = mail.outbox
    assert reset.subject == "Atur ulang sandi Hearts Anda"
    assert "Halo Alice," in reset.body and "Seseorang meminta" in reset.body
    assert changed.subject == "Alamat surélék akun Hearts anjeun geus robah"
    assert "Sampurasun Bob," in changed.body


@pytest.mark.django_db
def test_a_player_with_no_choice_is_written_to_in_the_sites_language(alice):
    with translation.override("su"):
        site_mail.send_password_changed(alice)
    (notice,) = mail.outbox
    assert notice.subject == "The password of your Hearts account has changed"


def test_the_sundanese_name_is_known_to_django():
    info = translation.get_language_info("su")
    assert (info["name"], info["name_local"], info["bidi"]) == ("Sundanese", "Basa Sunda", False)
    assert [code for code, _ in settings.LANGUAGES] == ["en", "id", "su"]
    assert Path(settings.LOCALE_PATHS[0]) == ROOT / "locale"


# ----- the match page, the lobby, Your turn, the rules -----------------------------------------


def _leftovers(client: Client, url: str, language: str) -> list[str]:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    assert response["Content-Language"] == language
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    return english_leftovers(html, language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", TRANSLATED)
def test_the_match_page_has_no_english_left_passing_playing_or_finished(alice, language):
    from tests.factories import client_for, make_match, play_to_the_end
    from tests.test_match_page import until_playing

    client = client_for(alice)
    passing = make_match(alice, seed=3)
    assert "pass-form" in client.get(passing.get_absolute_url()).text
    found = {"passing": _leftovers(client, passing.get_absolute_url(), language)}
    playing = until_playing(client, make_match(alice, seed=4))
    found["playing"] = _leftovers(client, playing.get_absolute_url(), language)
    finished = make_match(alice, target=25)
    list(play_to_the_end({0: client}, finished))
    found["finished"] = _leftovers(client, finished.get_absolute_url(), language)
    assert not {name: words for name, words in found.items() if words}


@pytest.mark.django_db
@pytest.mark.parametrize("language", TRANSLATED)
def test_your_turn_the_lobby_and_the_rules_have_no_english_left(alice, bob, language):
    from tests.factories import client_for, make_match, play_to_the_end

    client = client_for(alice)
    make_match(alice, seed=5)  # waiting for Alice's pass
    list(play_to_the_end({0: client}, make_match(alice, target=25)))
    client_for(bob).post(reverse("create_match"), {"players": 4, "target": 100})
    found = {
        name: _leftovers(client, url, language)
        for name, url in {
            "your turn": reverse("home"),
            "lobby": reverse("lobby"),
            "rules": reverse("rules"),
        }.items()
    }
    assert not {name: words for name, words in found.items() if words}
    anonymous = Client()
    assert not _leftovers(anonymous, reverse("rules"), language)


@pytest.mark.django_db
def test_a_card_that_cannot_be_played_says_why_in_sundanese(alice):
    from tests.factories import client_for, make_match, state_of
    from tests.test_match_page import hand_region, until_playing

    client = client_for(alice)
    for seed in range(1, 80):
        match = until_playing(client, make_match(alice, seed=seed))
        view = state_of(match).view(0)
        led = view.trick[0].card.suit if view.trick else None
        if led and any(c.suit == led for c in view.hand) and not all(o.legal for o in view.options):
            break
    else:
        pytest.skip("no deal with a card to follow")
    suit = {"C": "keriting", "D": "wajik", "H": "haté", "S": "sekop"}[led]
    page = client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="su").content.decode()
    hand = hand_region(page)
    assert f"Anjeun kudu nuturkeun {suit}" in hand
    assert "You must follow" not in hand
    # The same refusal, posted: the service says it in the reader's language too.
    illegal = next(o.card for o in view.options if not o.legal)
    refused = client.post(
        reverse("play_card", args=[match.pk]),
        {"card": str(illegal), "version": match.version},
        HTTP_ACCEPT_LANGUAGE="su",
    )
    assert refused.status_code == 400
    assert f"Anjeun kudu nuturkeun {suit}" in refused.content.decode()


def test_a_card_drawn_in_each_language_keeps_its_own_words():
    from games import engine
    from games.templatetags.cards import card_face

    queen = engine.Card.parse("QS")
    with translation.override("su"):
        sundanese = card_face(queen)
    with translation.override("en"):
        english = card_face(queen)
    with translation.override("id"):
        indonesian = card_face(queen)
    assert "Ratu sekop" in sundanese and "Queen of spades" not in sundanese
    assert "Queen of spades" in english
    assert "Ratu sekop" in indonesian
    with translation.override("su"):
        assert card_face(queen) == sundanese


@pytest.mark.django_db
def test_the_scripts_catalogue_answers_in_sundanese(client):
    client.post(reverse("set_language"), {"language": "su", "next": "/"})
    response = client.get("/jsi18n/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    text = response.content.decode()
    assert "Giliran anjeun dina patandingan %(match)s" in text
    assert r"waktu b\u00e9ak" in text  # "waktu béak", as JSON writes it
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/jsi18n/").content.decode()
    assert "Giliran" not in english


@pytest.mark.django_db
def test_the_pages_load_the_scripts_catalogue_before_their_scripts(alice):
    from tests.factories import client_for

    html = client_for(alice).get(reverse("lobby")).content.decode()
    assert html.index('<script src="/jsi18n/" defer>') < html.index("games/live.js")
