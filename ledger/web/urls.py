"""The web pages, included at / by `clubscore.urls` (the API keeps /api/, the admin /admin/)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import views, views_books

pages = [
    path("", views.home, name="home"),
    path("clubs/<int:club_id>/", views.club, name="club"),
    path("clubs/<int:club_id>/players/new/", views.player_new, name="player-new"),
    path("clubs/<int:club_id>/sessions/new/", views.session_new, name="session-new"),
    path("sessions/<int:session_id>/", views.session, name="session"),
    path("sessions/<int:session_id>/score/", views.score, name="score"),
    path("sessions/<int:session_id>/sheet/", views.sheet, name="sheet"),
    path("sessions/<int:session_id>/sheet/rows/", views.sheet_rows, name="sheet-rows"),
    path("sessions/<int:session_id>/settlement/", views.settlement, name="settlement"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("players/<int:player_id>/statement/", views_books.statement, name="statement"),
    path("players/<int:player_id>/statement.csv", views_books.statement_csv, name="statement-csv"),
    path("clubs/<int:club_id>/books/", views_books.club_books, name="books"),
    path("clubs/<int:club_id>/import/", views_books.history_import, name="import"),
    path("sessions/<int:session_id>/export.json", views_books.session_export, {"fmt": "json"}, name="export-json"),
    path("sessions/<int:session_id>/export.csv", views_books.session_export, {"fmt": "csv"}, name="export-csv"),
    path("rules/", views.rules_index, name="rules-index"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
]

urlpatterns = [
    path("", include((pages, "web"))),  # the pages, reversed as "web:<name>"
    # Django's session login and logout, without a namespace: `LOGIN_URL = "login"` names the first.
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
