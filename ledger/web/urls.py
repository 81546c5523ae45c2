"""The web pages, included at / by `clubscore.urls` (the API keeps /api/, the admin /admin/)."""

from __future__ import annotations

from django.urls import include, path

from . import clubs, live, login, nights, presets, seasons, substitutes, table, views, views_books

pages = [
    path("", views.home, name="home"),
    path("clubs/new/", clubs.club_new, name="club-new"),
    path("clubs/<int:club_id>/", views.club, name="club"),
    path("clubs/<int:club_id>/time-zone/", clubs.club_time_zone, name="club-time-zone"),
    path("clubs/<int:club_id>/payment/", clubs.club_payment, name="club-payment"),
    path("clubs/<int:club_id>/players/new/", views.player_new, name="player-new"),
    path("clubs/<int:club_id>/sessions/new/", views.session_new, name="session-new"),
    # A club's presets (issue 42): kept by treasurers, a table opened from one by a scorer.
    path("clubs/<int:club_id>/presets/", presets.preset_list, name="presets"),
    path("clubs/<int:club_id>/presets/new/", presets.preset_new, name="preset-new"),
    path("clubs/<int:club_id>/presets/<int:preset_id>/", presets.preset_edit, name="preset-edit"),
    path("clubs/<int:club_id>/presets/<int:preset_id>/open/", presets.preset_open, name="preset-open"),
    path("sessions/<int:session_id>/", views.session, name="session"),
    path("sessions/<int:session_id>/score/", views.score, name="score"),
    path("sessions/<int:session_id>/sheet/", views.sheet, name="sheet"),
    path("sessions/<int:session_id>/sheet.pdf", views.sheet_pdf, name="sheet-pdf"),
    path("sessions/<int:session_id>/settlement.pdf", views.settlement_pdf, name="settlement-pdf"),
    path("players/<int:player_id>/statement.pdf", views_books.statement_pdf, name="statement-pdf"),
    path("sessions/<int:session_id>/sheet/rows/", views.sheet_rows, name="sheet-rows"),
    path("sessions/<int:session_id>/settlement/", views.settlement, name="settlement"),
    path("sessions/<int:session_id>/substitute/", substitutes.substitute, name="substitute"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("players/<int:player_id>/mail/", views.player_mail, name="player-mail"),
    path("players/<int:player_id>/statement/", views_books.statement, name="statement"),
    path("players/<int:player_id>/statement.csv", views_books.statement_csv, name="statement-csv"),
    path("clubs/<int:club_id>/books/", views_books.club_books, name="books"),
    path("clubs/<int:club_id>/books.csv", views_books.books_csv, name="books-csv"),
    path("clubs/<int:club_id>/import/", views_books.history_import, name="import"),
    path("sessions/<int:session_id>/export.json", views_books.session_export, {"fmt": "json"}, name="export-json"),
    path("sessions/<int:session_id>/export.csv", views_books.session_export, {"fmt": "csv"}, name="export-csv"),
    # The whole table (issue 25): following a table, joining it, the room board.
    path("sessions/<int:session_id>/follow/", table.follow, name="follow"),
    path("sessions/<int:session_id>/follow/rows/", table.follow_rows, name="follow-rows"),
    path("sessions/<int:session_id>/join/", table.join, name="join"),
    path("sessions/<int:session_id>/conditions/", table.conditions_sheet, name="conditions"),
    path("sessions/<int:session_id>/disputes/", table.dispute_settle, name="dispute-settle"),
    path("t/<int:session_id>/", table.short_link, name="short-link"),
    path("s/<str:key>/", table.seat_follow, name="seat-follow"),
    path("s/<str:key>/rows/", table.seat_rows, name="seat-rows"),
    path("clubs/<int:club_id>/board/", table.club_board, name="club-board"),
    path("clubs/<int:club_id>/board/tables/", table.club_board_tables, name="club-board-tables"),
    path("clubs/<int:club_id>/board/links/", table.board_links, name="board-links"),
    path("b/<str:key>/", table.board, name="board"),
    path("b/<str:key>/tables/", table.board_tables_view, name="board-tables"),
    # The club night (issue 37): check-ins, the tables drawn, one settlement for the room.
    path("clubs/<int:club_id>/nights/", nights.night_open, name="night-open"),
    path("clubs/<int:club_id>/nights/<int:night_id>/", nights.night, name="night"),
    path("clubs/<int:club_id>/nights/<int:night_id>/check-in/", nights.night_check_in, name="night-check-in"),
    path("clubs/<int:club_id>/nights/<int:night_id>/draw/", nights.night_draw, name="night-draw"),
    path(
        "clubs/<int:club_id>/nights/<int:night_id>/tables/<int:number>/cut-in/",
        nights.night_cut_in,
        name="night-cut-in",
    ),
    path("clubs/<int:club_id>/nights/<int:night_id>/settlement/", nights.night_settlement, name="night-settlement"),
    # Seasons (issue 41) and the calendar of club nights (a feed a calendar app fetches without a login).
    path("clubs/<int:club_id>/seasons/", seasons.season_list, name="seasons"),
    path("clubs/<int:club_id>/seasons/<int:season_id>/", seasons.season, name="season"),
    path("clubs/<int:club_id>/calendar/", seasons.calendar_link, name="calendar-link"),
    path("calendar/<str:key>.ics", seasons.calendar_feed, name="calendar-feed"),
    path("rules/", views.rules_index, name="rules-index"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
]

# The live channel's streams (server-sent events; ledger/web/live.py): not pages, not JSON.
streams = [
    path("live/sessions/<int:session_id>/", live.session_events, name="live-session"),
    path("live/seat/<str:key>/", live.seat_events, name="live-seat"),
    path("live/clubs/<int:club_id>/", live.club_events, name="live-club"),
    path("live/board/<str:key>/", live.board_events, name="live-board"),
]

urlpatterns = [
    path("", include((pages, "web"))),  # the pages, reversed as "web:<name>"
    *streams,
    # Django's session login (under the login limits, issue 29) and logout, without a namespace:
    # `LOGIN_URL = "login"` names the first.
    path("login/", login.login, name="login"),
    path("logout/", login.logout, name="logout"),
]
