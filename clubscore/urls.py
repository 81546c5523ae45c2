"""Top-level routes: the admin, the API (api.urls), the language switch and catalog, the web pages.

Under /api/ every answer is JSON: api.urls ends with a catch-all JSON 404 (so APPEND_SLASH never
redirects there), and the handlers below answer JSON for /api/ when DEBUG is off.
"""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from clubscore.favicon import favicon
from clubscore.health import health
from ledger.i18n.views import set_language
from ledger.mail.views import mail_stop
from ledger.web.login import throttled_login

urlpatterns = [
    # The admin's login under the login limits (issue 29): matched before the admin's own pattern.
    path("admin/login/", throttled_login(admin.site.login)),
    path("admin/", admin.site.urls),
    path("health/", health, name="health"),  # for the proxy and for people (clubscore/health.py)
    path("favicon.ico", favicon, name="favicon"),  # the site's icon, asked for by every browser
    path("api/", include("api.urls")),
    # The switcher on every page posts here: Django's set_language, remembered on a logged-in user's account.
    path("i18n/setlang/", set_language, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The scripts' strings (domain djangojs) in the request's language; empty until locale/ has a catalog.
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # The evening's mail's opt-out link (issue 41): signed, no login.
    path("mail/stop/<str:token>/", mail_stop, name="evening-mail-stop"),
    path("", include("ledger.web.urls")),  # the web pages, the login and logout
]

handler400 = "api.errors.handler400"
handler403 = "api.errors.handler403"
handler404 = "api.errors.handler404"
handler500 = "api.errors.handler500"
