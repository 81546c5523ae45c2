"""Top-level routes: the admin, the API (api.urls) and the web pages."""

from django.contrib import admin
from django.urls import path

urlpatterns = [
    path("admin/", admin.site.urls),
]
