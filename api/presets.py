"""A club's presets (issue 42): its house rules, named and versioned. One class per operation.

Every member reads them (they are the conditions his tables play); treasurers and admins create, edit
and archive them. An edit names the version it was based on (`If-Match`, as a session's writes do) and
makes a new version when the conditions change; a session opened with `preset` keeps the version it
was opened from. A create may carry an `Idempotency-Key`: a retry gets the first answer again.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger import selectors
from ledger.models import Preset, Role
from ledger.services.presets import preset_archive, preset_create, preset_update

from . import schema
from .common import (
    Documented,
    ListQuery,
    Route,
    Strict,
    Text,
    Timestamp,
    Username,
    actor,
    etag,
    if_match,
    paginated,
    query,
    valid,
)
from .idempotency import idempotency_key, idempotent
from .limits import NAME_MAX, VARIANT_MAX
from .sessions import STAKE_SCHEMA


class PresetVersionOut(serializers.Serializer):
    version = serializers.IntegerField()
    variant = serializers.CharField()
    rules = serializers.DictField(help_text="the variant's options, the §0.11 conditions among them")
    stake = serializers.DictField(allow_null=True)
    created_by = Username(allow_null=True)
    created_at = Timestamp()


class PresetOut(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    name = serializers.CharField()
    version = serializers.IntegerField(help_text="the current version: a session opened now keeps this one")
    variant = serializers.CharField(source="current.variant")
    rules = serializers.DictField(source="current.rules")
    stake = serializers.DictField(source="current.stake", allow_null=True)
    archived = serializers.SerializerMethodField(help_text="archived: no table opens from it any more")
    updated_at = Timestamp()

    def to_representation(self, instance: Preset) -> Any:
        instance.current = selectors.preset_current(instance)  # type: ignore[attr-defined]
        return super().to_representation(instance)

    def get_archived(self, preset: Preset) -> bool:
        return preset.archived_at is not None


class PresetIn(Strict):
    name = Text(max_length=NAME_MAX)
    variant = Text(max_length=VARIANT_MAX)
    rules = Documented(
        required=False,
        schema={"type": "object", "description": "the variant's options (GET /api/v1/variants/{name}/)"},
    )
    stake = Documented(required=False, allow_null=True, schema=STAKE_SCHEMA)


def preset_response(preset: Preset, status: int = 200) -> Response:
    fresh = Preset.objects.prefetch_related("versions").get(pk=preset.pk)
    return Response(PresetOut(fresh).data, status=status, headers={"ETag": etag(fresh.version)})


class PresetListApi(APIView):
    """The club's presets, by name (members); `archived=true` lists the archived ones too."""

    class FilterSerializer(Strict):
        archived = serializers.BooleanField(required=False, default=False)
        page = serializers.CharField(required=False)
        page_size = serializers.CharField(required=False)

    OutputSerializer = PresetOut

    @extend_schema(
        responses=schema.page_of(OutputSerializer),
        parameters=[OpenApiParameter("archived", bool), *schema.PAGE_PARAMETERS],
        operation_id="v1_clubs_presets_list",
    )
    def get(self, request: Request, club_id: int) -> Response:
        filters = valid(self.FilterSerializer, query(request))
        presets = selectors.preset_list(user=request.user, club_id=club_id, archived=filters["archived"])
        return paginated(request, self, presets, self.OutputSerializer)


class PresetCreateApi(APIView):
    """Create a preset at version 1 (treasurers): its variant, rules and stake are judged by the engine
    as a session's are. An optional `Idempotency-Key` makes a retry answer the first create again."""

    InputSerializer = PresetIn
    OutputSerializer = PresetOut

    @extend_schema(
        request=InputSerializer,
        responses={201: OutputSerializer},
        parameters=[OpenApiParameter("Idempotency-Key", OpenApiTypes.UUID, OpenApiParameter.HEADER, required=False)],
    )
    def post(self, request: Request, club_id: int) -> Response:
        selectors.club_role(user=request.user, club_id=club_id, role=Role.TREASURER)  # 404 / 403 before the body
        if request.headers.get("Idempotency-Key") is None:
            return self._create(request, club_id)
        key = idempotency_key(request)
        return idempotent(request, self, key, lambda claim: self._create(request, club_id))

    def _create(self, request: Request, club_id: int) -> Response:
        data = valid(self.InputSerializer, request.data)
        preset = preset_create(
            actor=actor(request),
            club_id=club_id,
            name=data["name"],
            variant=data["variant"],
            rules=data.get("rules"),
            stake=data.get("stake"),
        )
        return preset_response(preset, 201)


class PresetsRoute(Route):
    operations = {"get": PresetListApi, "post": PresetCreateApi}


class PresetDetailApi(APIView):
    """One preset of the club (members), with its current version; `ETag` is that version."""

    OutputSerializer = PresetOut

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, club_id: int, preset_id: int) -> Response:
        found = selectors.preset_get(user=request.user, club_id=club_id, preset_id=preset_id)
        return Response(PresetOut(found).data, headers={"ETag": etag(found.version)})


class PresetUpdateApi(APIView):
    """Edit a preset (treasurers) with `If-Match: "<version>"`: other conditions make a new version (the
    sessions opened from the old one keep it); the same conditions with another name only rename it."""

    InputSerializer = PresetIn
    OutputSerializer = PresetOut

    @extend_schema(
        request=InputSerializer,
        responses={200: OutputSerializer},
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=True)],
    )
    def put(self, request: Request, club_id: int, preset_id: int) -> Response:
        found = selectors.preset_get(user=request.user, club_id=club_id, preset_id=preset_id, role=Role.TREASURER)
        version = if_match(request, found.version, "preset")
        data = valid(self.InputSerializer, request.data)
        preset = preset_update(
            actor=actor(request),
            club_id=club_id,
            preset_id=preset_id,
            expected_version=version,
            name=data["name"],
            variant=data["variant"],
            rules=data.get("rules"),
            stake=data.get("stake"),
        )
        return preset_response(preset)


class PresetArchiveApi(APIView):
    """Archive a preset (treasurers): no table opens from it any more; the sessions that used it keep
    their version. Archiving again answers the same."""

    @extend_schema(responses={204: None})
    def delete(self, request: Request, club_id: int, preset_id: int) -> Response:
        preset_archive(actor=actor(request), club_id=club_id, preset_id=preset_id)
        return Response(status=204)


class PresetRoute(Route):
    operations = {"get": PresetDetailApi, "put": PresetUpdateApi, "delete": PresetArchiveApi}


class PresetVersionListApi(APIView):
    """Every version of a preset, oldest first (members): what each evening opened from it played."""

    OutputSerializer = PresetVersionOut

    @extend_schema(
        responses=schema.page_of(OutputSerializer),
        parameters=schema.PAGE_PARAMETERS,
        operation_id="v1_clubs_presets_versions_list",
    )
    def get(self, request: Request, club_id: int, preset_id: int) -> Response:
        valid(ListQuery, query(request))
        versions = selectors.preset_versions(user=request.user, club_id=club_id, preset_id=preset_id)
        return paginated(request, self, versions, self.OutputSerializer)
