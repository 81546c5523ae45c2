"""Every page in French and Russian has no English left but names (issue 17, "Done when").

The detector reads what a person sees on a page: its text nodes and the attributes a browser shows or
reads aloud (title, aria-label, placeholder, alt), leaving out scripts, styles, `<code>` (typed as it
is: `manage.py createclub`, a bid's code) and any element marked as another language (the switcher's
`<option lang="en">English</option>`). From that text it drops the names of the scenario (players,
clubs, users, notes), identifiers and file names (`last_trick_hand`, `rules.md`: typed as they are)
and keeps the words. The English words of a page are the Latin-script words of the same page
rendered in English (its Russian words, старшая or бостон, are Russian); a word of the French or
Russian rendering that is one of them is English left over, unless it is on the short allow-list
below, where each word says why it is the same in the language.
`test_the_detector_finds_english_left_in_a_page` proves it finds what it is meant to find.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.timezone import localtime

from ledger import followup, nights
from ledger.engine.variants import variant_names
from ledger.models import Club, MoneyTransaction, Night, Player, Role, Session
from ledger.money import services as money_writes
from ledger.services.clubs import club_create, membership_set, player_create
from ledger.services.presets import preset_create
from ledger.services.sessions import session_close, session_import
from ledger.templatetags.clubscore import codes
from ledger.web.dates import day
from tests.ledger_fixtures import (
    AMERICAN_HANDS,
    PASSWORD,
    example_sheet,
    fresh,
    open_from_preset,
    open_session,
    record_all,
)

pytestmark = pytest.mark.django_db

LANGUAGES = ("fr", "ru")

# Words a French or Russian page may share with its English rendering, each for its reason.
SAME_IN_EVERY_LANGUAGE = {
    "clubscore": "the application's name",
    "json": "a file format's name (Score sheet (JSON))",
    "csv": "a file format's name (Deals (CSV))",
    "pdf": "a file format's name (the printed sheets, issue 41)",
    "iban": "the International Bank Account Number, the banks' own name in every language (issue 41)",
    "bic": "the banks' Business Identifier Code, its name in every language (issue 41)",
    "javascript": "a programming language's name (the scorer's noscript notice)",
    "usd": "an ISO 4217 currency code, the stake's and the books' currency",
    "eur": "an ISO 4217 currency code, the stake's placeholder and an imported evening's currency",
    "rub": "an ISO 4217 currency code, an imported Russian evening's currency",
    "fontainebleau": "a place: Boston de Fontainebleau, the variant's name in every language",
    "complete": "the title of Foster's book, The Complete Hoyle, cited as the rules' source",
    "hoyle": "the title of Foster's book, The Complete Hoyle, cited as the rules' source",
    "part": "«Part 21», the title of Foster's chapter, quoted",
    "seed": "the source files' name (seed 000 … 004), as docs/glossary.md cites them",
    "french": "«French Boston», the title of Foster's chapter, quoted as the source of French Boston",
    "qr": "the QR code (code QR, QR-код): the scorer page's link to the table's join page",
}
SAME_IN_FRENCH = {
    # French words spelt as the English ones, with the same meaning on these pages.
    "souverain": "le souverain, the Russian bid of 12 tricks (002:120), French in the source",
    "grand": "grand souverain, grande misère: the bids' French names",
    "boston": "the game and its five-trick bid: le boston (glossary)",
    "date": "la date, a column heading",
    "arrive": "« Un membre arrive » on the night page: il arrive, the verb spelt as the English one",
    "table": "la table (the four players) and le tableau's neighbour: a column heading",
    "tables": "les tables of the club's room (the board link's page)",
    "code": "le code, the rules page's column of bid codes",
    "note": "la note, the payment's free text field",
    "final": "le total final, a column heading",
    "misère": "la misère, the books' word in French Boston (glossary)",
    "belle": "la belle, French Boston's own word (glossary)",
    "petite": "la petite, French Boston's own word (glossary)",
    "neuf": "le neuf, French Boston's own word (glossary)",
    "piccolissimo": "piccolissimo, the same in French (glossary)",
    "simple": "la simple, French Boston's own word (glossary)",
    "solo": "le solo, the same word",
    "partout": "misère partout, the same words in French (glossary)",
    "indépendance": "French Boston's own word, that English pages keep (glossary)",
    "contre": "contre, the same word",
    "double": "une donne double, the same word",
    "total": "le total, the same word",
    "via": "via, the same word",
    "tarif": "le tarif, the same word",
    "consolation": "la consolation, the Russian tariff's two chips (glossary)",
    "club": "le club, the same word",
    "clubs": "les clubs, the same word",
    "options": "les options, the same word",
    "de": "French: Boston de Fontainebleau, which the English pages write in French too",
    "six": "six, the same number word (the bid six)",
    "as": "l'as, the ace (misère des quatre as)",
    "sur": "French: misère sur table, which the English pages quote",
    "doubles": "les doubles, French Boston's own word (glossary: simples / doubles)",
    "tours": "les tours (simple, double), the same word",
    "quota": "le quota, the same word",
    "no": "the French numero sign written no (tableau no 1, glossary)",
    "bar": "le bar, the same word (cash at the bar)",
    "dates": "les dates, the same word",
    "misères": "les misères, the books' word in French (glossary)",
    "oct": "oct., the French abbreviation of octobre, spelt as the English Oct",
    "nov": "nov., the French abbreviation of novembre, spelt as the English Nov",
    "conditions": "les conditions de la table (issue 42), the same word",
    "version": "la version d'une formule (issue 42), the same word",
    "versions": "les versions d'une formule (issue 42), the same word",
    "euros": "les euros, the same word (the club's payment details, issue 41)",
    "roubles": "les roubles, the same word (issue 41)",
    "instructions": "les instructions de paiement, the same word (issue 41)",
    "exact": "le montant exact, the same word (issue 41)",
    "gost": "GOST R 56042-2014, the Russian standard's name in Latin letters (issue 41)",
    "suit": "il suit, of suivre (le lien ne suit que cette table), spelt as the English suit of a third suit",
}
SAME_IN_RUSSIAN = {
    "boston": "«Boston», «Boston de Fontainebleau»: Foster's chapters, quoted as the sources",
    "de": "«Boston de Fontainebleau», Foster's chapter, quoted as the source",
}


# --- what a page says ---------------------------------------------------------------------------------

SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
UNREAD = {"script", "style", "code", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Visible(HTMLParser):
    """The text a person sees or hears on the page, element by element."""

    def __init__(self, language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.language = language
        self.stack: list[bool] = []  # for each open element: is its content left out?
        self.texts: list[str] = []

    @property
    def skipping(self) -> bool:
        return any(self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        lang = values.get("lang")
        other_language = tag != "html" and lang is not None and lang.split("-")[0] != self.language
        # The time-zone choices are places, CLDR's names in the page's language (« Abidjan (Côte d’Ivoire) »,
        # spelt as in English): names, like the players'; tests/web/test_zone_choices.py reads them.
        places = tag == "select" and values.get("name") == "time_zone"
        left_out = tag in UNREAD or other_language or places
        if not self.skipping and not left_out:
            self.texts.extend(value for name in SHOWN_ATTRIBUTES if (value := values.get(name)))
            if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
                self.texts.append(values["value"] or "")
        if tag not in VOID:
            self.stack.append(left_out)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.texts.append(data)


WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
LATIN = re.compile(r"[a-zà-ÿœæ'’]+")
TYPED = re.compile(r"\b\w+(?:[._]\w+)+\b")  # identifiers and file names: last_trick_hand, rules.md
ADDRESS = re.compile(r"\bhttps?://\S+")  # an address shown as itself (the night's door link) is no word


def visible_text(html: str, language: str) -> list[str]:
    parser = _Visible(language)
    parser.feed(html)
    parser.close()
    return parser.texts


def words(html: str, language: str, names: set[str]) -> set[str]:
    """The page's words, lowercased, with the scenario's names, identifiers and file names taken out first."""
    found: set[str] = set()
    for text in visible_text(html, language):
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        text = TYPED.sub(" ", ADDRESS.sub(" ", text))
        found.update(w.lower() for w in WORD.findall(text) if len(w) > 1)
    return found


def english_words(html: str, names: set[str]) -> set[str]:
    """The words of an English rendering that are English: those in Latin script."""
    return {w for w in words(html, "en", names) if LATIN.fullmatch(w)}


def allowed(language: str) -> set[str]:
    own = SAME_IN_FRENCH if language == "fr" else SAME_IN_RUSSIAN
    return set(SAME_IN_EVERY_LANGUAGE) | set(own)


def english_left(english_html: str, html: str, language: str, names: set[str]) -> set[str]:
    """The words of `html` (in `language`) that are words of the English rendering of the same page."""
    return (english_words(english_html, names) & words(html, language, names)) - allowed(language)


# --- the scenario: a club with a closed evening (money, payments) and open sessions ---------------------


@dataclass
class Scene:
    club: Club
    players: list[Player]
    closed: Session
    open: Session
    open_empty: Session
    names: set[str] = field(default_factory=set)
    preset: int = 0  # a Russian preset (issue 42), and `empty` opened from it
    nights: list[Night] = field(default_factory=list)  # drawn (one table, a guest waits), not drawn yet


@pytest.fixture
def scene(db: None) -> Scene:
    User = get_user_model()
    owner = User.objects.create_superuser("zoya", "zoya@example.org", PASSWORD)
    stranger = User.objects.create_user("lena", "lena@example.org", PASSWORD)
    club = club_create(actor=owner, name="Bars Club")
    other = club_create(actor=stranger, name="Kirov Circle")
    membership_set(actor=stranger, club_id=other.pk, user=owner, role=Role.PLAYER)
    membership_set(actor=owner, club_id=club.pk, user=stranger, role=Role.PLAYER)
    players = [player_create(actor=owner, club_id=club.pk, name=n) for n in ("Ann", "Ben", "Cleo", "Dan")]
    closed = open_session(owner, club, players, stake={"currency": "USD", "per_counter": "0.01"})
    record_all(owner, closed, AMERICAN_HANDS)
    session_close(actor=owner, session_id=closed.pk, pools="carry", expected_version=fresh(closed).version)
    followup.followup_run(session_id=closed.pk)  # money [-30, -115, 90, 55]
    ann, ben, cleo, dan = (p.pk for p in players)
    money_writes.payment_record(
        actor=owner, club_id=club.pk, payer=ben, payee=cleo, currency="USD", cents=50, status="partly_paid", note="Qx"
    )
    paid = money_writes.payment_record(
        actor=owner, club_id=club.pk, payer=ann, payee=dan, currency="USD", cents=30, status="paid"
    )
    money_writes.payment_reverse(actor=owner, club_id=club.pk, transaction_id=paid.pk, note="Qy")
    opened = open_session(owner, club, players, variant="american", stake={"currency": "USD", "per_counter": "0.05"})
    record_all(owner, opened, AMERICAN_HANDS[:2])
    preset = preset_create(
        actor=owner,
        club_id=club.pk,
        name="Pyatnitsa",
        variant="russian",
        # souverain set: its conditions show the parts `made` and `failed` in words (issue 42)
        rules={"basket": 20, "nine": {"base": 4, "extra": 2}, "misere": 10, "souverain": {"made": 90, "failed": 110}},
    )
    empty = open_from_preset(owner, club, list(reversed(players)), preset)
    drawn = nights.night_open(actor=owner, club_id=club.pk, date="2026-03-14")[0]
    for p in players:
        nights.check_in(actor=owner, night_id=drawn.pk, player_id=p.pk)
    nights.guest_check_in(actor=owner, night_id=drawn.pk, name="Eve")
    nights.night_draw(actor=owner, night_id=drawn.pk, variant="american", stake={"currency": "USD", "per_counter": "1"})
    undrawn = nights.night_open(actor=owner, club_id=club.pk)[0]
    names = {"Bars Club", "Kirov Circle", "zoya", "lena", "Qx", "Qy", "Pyatnitsa", "Eve", *(p.name for p in players)}
    return Scene(club, players, fresh(closed), fresh(opened), fresh(empty), names, preset.pk, [drawn, undrawn])


def client(language: str, username: str | None = "zoya") -> Client:
    browser = Client(headers={"accept-language": language})
    browser.cookies["django_language"] = language  # the switcher's choice, as a browser keeps it
    if username:
        assert browser.login(username=username, password=PASSWORD)
    return browser


def pages(scene: Scene) -> Iterator[tuple[str, str, str | None, int]]:
    """(what, address, who is logged in, the status it answers): every page of the site."""
    club, closed, opened, empty = scene.club.pk, scene.closed.pk, scene.open.pk, scene.open_empty.pk
    ann = scene.players[0].pk
    yield "home", reverse("web:home"), "zoya", 200
    yield "club", reverse("web:club", args=[club]), "zoya", 200
    yield "new session", reverse("web:session-new", args=[club]), "zoya", 200
    yield "scorer, open", reverse("web:score", args=[opened]), "zoya", 200
    yield "scorer, Russian, no deal yet", reverse("web:score", args=[empty]), "zoya", 200
    yield "sheet, open", reverse("web:sheet", args=[opened]), "zoya", 200
    yield "sheet, closed", reverse("web:sheet", args=[closed]), "zoya", 200
    yield "sheet, no deal yet", reverse("web:sheet", args=[empty]), "zoya", 200
    yield "settlement, closed", reverse("web:settlement", args=[closed]), "zoya", 200
    yield "settlement, open", reverse("web:settlement", args=[opened]), "zoya", 200
    yield "player", reverse("web:player", args=[ann]), "zoya", 200
    yield "rules", reverse("web:rules-index"), "zoya", 200
    for name in variant_names():
        yield f"rules of {name}", reverse("web:rules", args=[name]), "zoya", 200
    yield "books", reverse("web:books", args=[club]), "zoya", 200
    yield "statement", reverse("web:statement", args=[ann]), "zoya", 200
    yield "import", reverse("web:import", args=[club]), "zoya", 200
    yield "following a table", reverse("web:follow", args=[opened]), "zoya", 200
    yield "following a closed table", reverse("web:follow", args=[closed]), "zoya", 200
    yield "joining a table", reverse("web:join", args=[opened]), "zoya", 200
    # presets (issue 42), and a table's conditions in words
    yield "joining a table opened from a preset", reverse("web:join", args=[empty]), "zoya", 200
    yield "following a table before deal 1", reverse("web:follow", args=[empty]), "zoya", 200
    yield "the conditions to print", reverse("web:conditions", args=[empty]), "zoya", 200
    yield "the conditions of an American table", reverse("web:conditions", args=[opened]), "zoya", 200
    yield "presets", reverse("web:presets", args=[club]), "zoya", 200
    yield "new preset", reverse("web:preset-new", args=[club]), "zoya", 200
    yield "a preset", reverse("web:preset-edit", args=[club, scene.preset]), "zoya", 200
    yield "opening a table from a preset", reverse("web:preset-open", args=[club, scene.preset]), "zoya", 200
    yield "the room board", reverse("web:club-board", args=[club]), "zoya", 200
    yield "board links", reverse("web:board-links", args=[club]), "zoya", 200
    drawn, undrawn = (n.pk for n in scene.nights)
    yield "club night, drawn", reverse("web:night", args=[club, drawn]), "zoya", 200
    yield "club night, before the draw", reverse("web:night", args=[club, undrawn]), "zoya", 200
    yield "club night, a member's", reverse("web:night", args=[club, undrawn]), "lena", 200
    yield "the room's settlement, a table open", reverse("web:night-settlement", args=[club, drawn]), "zoya", 200
    yield "login", reverse("login"), None, 200
    yield "403", reverse("web:books", args=[club]), "lena", 403
    yield "404", reverse("web:session", args=[closed + 1000]), "zoya", 404
    yield "404, no such address", "/no/such/page/", "zoya", 404


def render(address: str, language: str, who: str | None, status: int) -> str:
    response = client(language, who).get(address)
    assert response.status_code == status, (address, language, response.status_code)
    assert response["Content-Language"] == language
    return response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_has_no_english_left_but_names(scene: Scene, language: str) -> None:
    left: dict[str, set[str]] = {}
    for what, address, who, status in pages(scene):
        english = render(address, "en", who, status)
        html = render(address, language, who, status)
        assert f'<html lang="{language}">' in html
        if found := english_left(english, html, language, scene.names):
            left[what] = found
    assert not left, f"English left on the {language} pages: {left}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_new_session_form_has_no_english_left(scene: Scene, language: str) -> None:
    """The form's own refusals (no variant, no seats, half a stake) in the page's language."""
    address = reverse("web:session-new", args=[scene.club.pk])
    posted = {"variant": "russian", "stake_currency": "EUR", "rule-russian-nine.base": "x"}
    english = client("en").post(address, posted)
    page = client(language).post(address, posted)
    assert english.status_code == page.status_code == 400
    left = english_left(english.content.decode(), page.content.decode(), language, scene.names)
    assert not left, f"English left on the refused form in {language}: {left}"


# Evenings of every variant, from the spec's example sheets: closed with their house rules, and open
# (their close taken off) where the deals show the variant's rarer words (slams, revokes).
CLOSED_EVENINGS = (
    "american-evening-house-rules",
    "fontainebleau-evening-house-rules",
    "french-partie-house-rules",
    "russian-partie-house-rules",
)
OPEN_EVENINGS = ("french-slams", "russian-revokes")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_variant_s_evenings_have_no_english_left(scene: Scene, language: str) -> None:
    owner = get_user_model().objects.get(username="zoya")
    sessions = []
    for name in CLOSED_EVENINGS + OPEN_EVENINGS:
        sheet = example_sheet(name)
        if name in OPEN_EVENINGS:
            sheet.pop("close")
        scene.names.update(sheet["players"])
        session = session_import(
            actor=owner, club_id=scene.club.pk, sheet=sheet, closed_at="2026-11-20" if "close" in sheet else None
        )
        followup.followup_run(session_id=session.pk)
        sessions.append((name, session.pk))
    addresses = [("club with every variant", reverse("web:club", args=[scene.club.pk]))]
    addresses.append(("books in three currencies", reverse("web:books", args=[scene.club.pk])))
    for name, pk in sessions:
        addresses += [(f"sheet of {name}", reverse("web:sheet", args=[pk]))]
        addresses += [(f"settlement of {name}", reverse("web:settlement", args=[pk]))]
        if name in OPEN_EVENINGS:
            addresses += [(f"scorer of {name}", reverse("web:score", args=[pk]))]
    for player in Player.objects.filter(club=scene.club, name__in=["Adèle", "Анна"]):
        addresses += [(f"player {player.name}", reverse("web:player", args=[player.pk]))]
        addresses += [(f"statement of {player.name}", reverse("web:statement", args=[player.pk]))]
    left: dict[str, set[str]] = {}
    for what, address in addresses:
        english = render(address, "en", "zoya", 200)
        if found := english_left(english, render(address, language, "zoya", 200), language, scene.names):
            left[what] = found
    assert not left, f"English left on the {language} pages: {left}"


# --- the detector can fail ------------------------------------------------------------------------------

FRAGMENT = Template(
    "{% load i18n %}<section><h2>{% translate 'Who pays whom' %}</h2>"
    "<p title=\"Nobody owes anything\">{% translate 'Close the session' %}</p>"
    "<p>Ann: nothing yet</p><code>manage.py</code>"
    '<select><option lang="en">English</option></select></section>'
)


def test_the_detector_finds_english_left_in_a_page() -> None:
    """A fragment with one sentence left out of the catalog (and one title): found, in both languages;
    the translated sentences, a name, a `<code>` and a text marked as English are not."""
    rendered = {}
    for language in ("en", *LANGUAGES):
        with translation.override(language):
            rendered[language] = FRAGMENT.render(Context())
    for language in LANGUAGES:
        assert english_left(rendered["en"], rendered[language], language, {"Ann"}) == {
            "nobody",
            "owes",
            "anything",
            "nothing",
            "yet",
        }
    assert "english" not in words(rendered["fr"], "fr", set())
    assert "manage" not in words(rendered["fr"], "fr", set())


def test_the_detector_reads_attributes_and_leaves_out_scripts() -> None:
    html = (
        '<div aria-label="Balances"><input placeholder="cash at the bar"><img alt="a chart">'
        '<script>const x = "hidden words";</script><style>.a{}</style><button title="Undo it">↶</button></div>'
    )
    assert words(html, "fr", set()) == {"balances", "cash", "at", "the", "bar", "chart", "undo", "it"}


# --- what the spec says the languages write ---------------------------------------------------------------


def test_russian_deal_counts_take_their_three_forms() -> None:
    line = Template(
        "{% load i18n %}{% blocktranslate count n=n %}{{ n }} deal{% plural %}{{ n }} deals{% endblocktranslate %}"
    )
    with translation.override("ru"):
        shown = [line.render(Context({"n": n})) for n in (1, 2, 5, 11, 21, 22)]
    assert shown == ["1 сдача", "2 сдачи", "5 сдач", "11 сдач", "21 сдача", "22 сдачи"]
    with translation.override("fr"):
        assert [line.render(Context({"n": n})) for n in (0, 1, 2)] == ["0 donne", "1 donne", "2 donnes"]


def test_money_and_dates_as_each_language_writes_them(scene: Scene) -> None:
    """The books in French and Russian: the decimal comma, the currency's sign after the amount, and a
    month's name in the language (Ben owes $1.15 less the 50 cents he paid: −0,65 $)."""
    address = reverse("web:books", args=[scene.club.pk])
    paid = localtime(MoneyTransaction.objects.filter(club=scene.club, kind="paid").get().created_at)
    months = {  # the payments' days: a month's name, in Russian in the genitive (1 декабря)
        "fr": [
            "janvier",
            "février",
            "mars",
            "avril",
            "mai",
            "juin",
            "juillet",
            "août",
            "septembre",
            "octobre",
            "novembre",
            "décembre",
        ],
        "ru": [
            "января",
            "февраля",
            "марта",
            "апреля",
            "мая",
            "июня",
            "июля",
            "августа",
            "сентября",
            "октября",
            "ноября",
            "декабря",
        ],
    }
    english = render(address, "en", "zoya", 200)
    assert "−$0.65" in english
    for language in LANGUAGES:
        html = render(address, language, "zoya", 200)
        assert "−0,65\xa0$" in html, language
        first = "1er" if language == "fr" and paid.day == 1 else str(paid.day)  # French: le 1er du mois
        assert f"{first} {months[language][paid.month - 1]} " in html, language


def test_the_books_words_on_the_russian_and_french_pages(scene: Scene) -> None:
    """The glossary's terms (docs/glossary.md), not literal ones: расчёт, сдача, взятки, корзина; règlement,
    donne, levées, poule."""
    sheet = reverse("web:sheet", args=[scene.open.pk])
    settlement = reverse("web:settlement", args=[scene.closed.pk])
    ru_sheet, fr_sheet = render(sheet, "ru", "zoya", 200), render(sheet, "fr", "zoya", 200)
    assert "Сдача" in ru_sheet and "Взятки" in ru_sheet and "Козырь" in ru_sheet
    assert "Donne" in fr_sheet and "Levées" in fr_sheet and "Atout" in fr_sheet
    ru_settlement, fr_settlement = render(settlement, "ru", "zoya", 200), render(settlement, "fr", "zoya", 200)
    assert "Расчёт" in ru_settlement and "Règlement" in fr_settlement


def test_a_rules_text_sets_what_is_typed_as_code_and_leaves_the_words() -> None:
    """`honours` after "règle maison" and `base` are what a sheet types; the bid "neuf" is a word."""
    shown = codes("jetons pour un neuf : base pour neuf levées (règle maison honours, grand_column)", "french")
    assert shown == "jetons pour un neuf : <code>base</code> pour neuf levées (règle maison honours, grand_column)"
    shown = codes("Honneurs (règle maison honours) ; colonne grand_column", "fontainebleau")
    assert shown == "Honneurs (règle maison <code>honours</code>) ; colonne <code>grand_column</code>"
    assert codes("<b>x</b>", "french") == "&lt;b&gt;x&lt;/b&gt;"


@pytest.mark.parametrize(
    ("language", "first", "eleventh", "short"),
    [
        ("en", "1 Dec 2026", "11 May 2026", "1 Dec 26"),
        ("fr", "1er décembre 2026", "11 mai 2026", "1er déc. 2026"),
        ("ru", "1 декабря 2026", "11 мая 2026", "01.12.2026"),
    ],
)
def test_days_as_each_language_writes_them(language: str, first: str, eleventh: str, short: str) -> None:
    """French writes the first of a month as an ordinal; Russian's month is in the genitive, and its
    short day is the numeric one (an abbreviation would be «11 май», in the wrong case)."""
    with translation.override(language):
        assert (day(dt.date(2026, 12, 1)), day(dt.date(2026, 5, 11)), day(dt.date(2026, 12, 1), "short")) == (
            first,
            eleventh,
            short,
        )
