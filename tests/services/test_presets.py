"""ledger.services: a club's presets (issue 42), named and versioned; sessions opened from them."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from ledger import selectors
from ledger.engine import EngineError
from ledger.engine.variants import get_variant, variant_names
from ledger.exceptions import InvalidRequest, NotFound, PermissionDenied, VersionMismatch
from ledger.models import Club, Player, Preset, PresetVersion
from ledger.services.clubs import player_create
from ledger.services.presets import preset_archive, preset_create, preset_update
from tests.ledger_fixtures import AMERICAN_HANDS, assert_projection, fresh, open_from_preset, record_all

pytestmark = pytest.mark.django_db


def make(actor: Any, club: Club, name: str = "House", **conditions: Any) -> Preset:
    conditions.setdefault("variant", "american")
    conditions.setdefault("rules", {"ante": 10})
    return preset_create(actor=actor, club_id=club.pk, name=name, **conditions)


open_from = open_from_preset


@pytest.mark.parametrize("variant", sorted(variant_names()))
def test_every_declared_option_at_its_default_makes_a_preset(admin: Any, club: Club, variant: str) -> None:
    """The preset takes whatever the variant declares (read from the declaration, as the new-session
    form is): every option of every variant, each at its declared default where it has one."""
    options = {o.name: o.default for o in get_variant(variant).declaration.options if o.default is not None}
    preset = make(admin, club, variant=variant, rules=options)
    assert selectors.preset_current(preset).rules == options


def test_an_option_the_variant_does_not_declare_is_the_engines_refusal(admin: Any, club: Club) -> None:
    with pytest.raises(EngineError) as refused:
        make(admin, club, rules={"remiz": 2})  # Russian's, not American's
    assert "rules.remiz" in refused.value.fields
    assert not Preset.objects.exists()


def test_an_edit_adds_a_version_and_never_touches_an_old_evening(admin: Any, club: Club, players: list[Player]) -> None:
    preset = make(admin, club)
    session = open_from(admin, club, players, preset)
    record_all(admin, session, AMERICAN_HANDS[:2])
    settled = [h.settled for h in session.hands.order_by("number")]
    preset_update(
        actor=admin,
        club_id=club.pk,
        preset_id=preset.pk,
        expected_version=1,
        name="House",
        variant="american",
        rules={"ante": 1},
    )
    record_all(admin, session, AMERICAN_HANDS[2:3])
    kept = fresh(session)
    assert kept.rules == {"ante": 10} and kept.preset_version is not None and kept.preset_version.version == 1
    assert [h.settled for h in kept.hands.order_by("number")][:2] == settled
    assert_projection(kept)
    assert [v.rules for v in PresetVersion.objects.filter(preset=preset)] == [{"ante": 10}, {"ante": 1}]
    later = open_from(admin, club, players, preset)
    assert later.rules == {"ante": 1} and later.preset_version.version == 2


def test_a_stale_edit_is_refused(admin: Any, club: Club) -> None:
    preset = make(admin, club)
    with pytest.raises(VersionMismatch):
        preset_update(
            actor=admin,
            club_id=club.pk,
            preset_id=preset.pk,
            expected_version=2,
            name="X",
            variant="american",
            rules={},
        )


def test_roles(admin: Any, club: Club, scorer: Any, treasurer: Any, players: list[Player]) -> None:
    with pytest.raises(PermissionDenied):
        make(scorer, club)
    preset = make(treasurer, club)
    assert open_from(scorer, club, players, preset).preset_version.preset_id == preset.pk
    with pytest.raises(PermissionDenied):
        preset_archive(actor=scorer, club_id=club.pk, preset_id=preset.pk)


def test_another_clubs_preset_is_no_preset(
    admin: Any, club: Club, other_admin: Any, other_club: Club, players: list[Player]
) -> None:
    preset = make(admin, club)
    with pytest.raises(NotFound):
        preset_archive(actor=other_admin, club_id=other_club.pk, preset_id=preset.pk)
    with pytest.raises(NotFound):
        selectors.preset_get(user=other_admin, club_id=club.pk, preset_id=preset.pk)
    theirs = [player_create(actor=other_admin, club_id=other_club.pk, name=n) for n in "EFGH"]
    with pytest.raises(InvalidRequest):
        open_from(other_admin, other_club, theirs, preset)


def test_the_database_keeps_one_live_name_and_every_version_once(admin: Any, club: Club) -> None:
    preset = make(admin, club)
    with pytest.raises(IntegrityError), transaction.atomic():
        Preset.objects.create(club=club, name="House")
    with pytest.raises(IntegrityError), transaction.atomic():
        PresetVersion.objects.create(preset=preset, version=1, variant="american")
    preset_archive(actor=admin, club_id=club.pk, preset_id=preset.pk)
    assert make(admin, club).pk != preset.pk  # an archived name is free again


def test_a_clubs_export_keeps_its_presets_and_what_each_session_was_opened_from(
    admin: Any, club: Club, players: list[Player]
) -> None:
    from ledger.backup import club_export

    preset = make(admin, club)
    session = open_from(admin, club, players, preset)
    export = club_export(club)
    assert export["presets"][0]["versions"][0]["rules"] == {"ante": 10}
    assert next(s for s in export["sessions"] if s["id"] == session.pk)["preset"] == {"id": preset.pk, "version": 1}
