"""Presets (issue 42): the club's house rules, named and versioned."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger.engine import parse_sheet
from ledger.engine.variants import get_variant
from ledger.exceptions import (
    InvalidRequest,
    NotFound,
    VersionMismatch,
)
from ledger.models import (
    Club,
    Preset,
    PresetVersion,
    Role,
    Session,
)
from ledger.names import clean_name
from ledger.selectors import (
    club_role,
    sheet_of,
)
from ledger.services.projection import (
    SEAT_NAMES,
)

# --- presets (issue 42): the club's house rules, named and versioned ----------------------------------


def _check_conditions(variant: Any, rules: Any, stake: Any) -> str:
    """What a table would be opened with, judged by the engine as a sheet with no hand: its errors
    name the field (`variant`, `rules.<option>`, `stake`), in the words of a session's. The variant's
    code is returned, an alias ("boston-français") kept under it as a session keeps it."""
    if not isinstance(variant, str):
        raise InvalidRequest.field("variant", "choose a variant")
    trial = Session(variant=variant, rules=rules if rules is not None else {}, first_dealer=0, stake=stake, pools_in=[])
    parse_sheet(sheet_of(session=trial, players=SEAT_NAMES, hands=[], close=None))
    return get_variant(variant).name


def _preset_name_free(club_id: int, name: str, but: int | None = None) -> None:
    taken = Preset.objects.filter(club_id=club_id, name=name, archived_at__isnull=True)
    if but is not None:
        taken = taken.exclude(pk=but)
    if taken.exists():
        raise InvalidRequest.field("name", "the club already has a preset of this name")


def preset_create(*, actor: User, club_id: int, name: Any, variant: Any, rules: Any, stake: Any = None) -> Preset:
    """A new preset at version 1 (treasurers and admins): the club's house rules, judged by the engine."""
    name = clean_name(name, "name")
    rules = rules if rules is not None else {}
    variant = _check_conditions(variant, rules, stake)
    try:
        with transaction.atomic(durable=True):
            club_role(user=actor, club_id=club_id, role=Role.TREASURER)
            Club.objects.select_for_update().filter(pk=club_id).first()  # names: one writer at a time
            _preset_name_free(club_id, name)
            preset = Preset.objects.create(club_id=club_id, name=name)
            PresetVersion.objects.create(
                preset=preset, version=1, variant=variant, rules=rules, stake=stake, created_by=actor
            )
    except IntegrityError:  # a concurrent create of the same name
        raise InvalidRequest.field("name", "the club already has a preset of this name") from None
    return preset


def preset_update(
    *,
    actor: User,
    club_id: int,
    preset_id: int,
    expected_version: int | None,
    name: Any,
    variant: Any,
    rules: Any,
    stake: Any = None,
) -> Preset:
    """Edit a preset (treasurers and admins): new conditions make a new version, the old ones stay
    with the sessions that were opened from them; the same conditions again make none (a rename only).
    `expected_version` is the version the editor saw: another is VersionMismatch (412)."""
    name = clean_name(name, "name")
    rules = rules if rules is not None else {}
    variant = _check_conditions(variant, rules, stake)
    try:
        with transaction.atomic(durable=True):
            club_role(user=actor, club_id=club_id, role=Role.TREASURER)
            Club.objects.select_for_update().filter(pk=club_id).first()
            preset = Preset.objects.select_for_update().filter(pk=preset_id, club_id=club_id).first()
            if preset is None or preset.archived_at is not None:
                raise NotFound("no such preset in this club")
            if expected_version != preset.version:
                raise VersionMismatch(f"the preset is at version {preset.version}, not {expected_version}")
            _preset_name_free(club_id, name, but=preset.pk)
            current = PresetVersion.objects.get(preset=preset, version=preset.version)
            same = current.variant == variant and current.rules == rules and current.stake == stake
            if not same:
                preset.version += 1
                PresetVersion.objects.create(
                    preset=preset, version=preset.version, variant=variant, rules=rules, stake=stake, created_by=actor
                )
            if not same or name != preset.name:
                preset.name = name
                preset.updated_at = timezone.now()
                preset.save(update_fields=["name", "version", "updated_at"])
    except IntegrityError:
        raise InvalidRequest.field("name", "the club already has a preset of this name") from None
    return preset


def preset_archive(*, actor: User, club_id: int, preset_id: int) -> None:
    """Archive a preset (treasurers and admins): no table opens from it any more; its versions stay with
    the sessions that used them, and its name is free again. Archiving twice is the same as once."""
    with transaction.atomic(durable=True):
        club_role(user=actor, club_id=club_id, role=Role.TREASURER)
        preset = Preset.objects.select_for_update().filter(pk=preset_id, club_id=club_id).first()
        if preset is None:
            raise NotFound("no such preset in this club")
        if preset.archived_at is None:
            preset.archived_at = timezone.now()
            preset.save(update_fields=["archived_at"])
