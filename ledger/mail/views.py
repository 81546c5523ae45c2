"""The opt-out link of the evening's mail: signed, no login. The link shows a button; only its POST stops
the mail (a mail scanner that opens links does not opt anyone out)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from ledger.models import Player
from ledger.services.clubs import player_mail_stop

from .services import stop_player_id


@csrf_exempt  # the signed key is the caller; a mail reader's one-click opt-out (RFC 8058) posts no token
def mail_stop(request: HttpRequest, token: str) -> HttpResponse:
    player_id = stop_player_id(token)
    player = Player.objects.select_related("club").filter(pk=player_id).first() if player_id else None
    if player is None:
        raise Http404("no such link")
    if request.method == "POST":
        player = player_mail_stop(player_id=player.pk) or player
    response = render(request, "mail/stop.html", {"player": player, "stopped": player.mail_stopped == "opted_out"})
    response["Cache-Control"] = "no-store"
    return response
