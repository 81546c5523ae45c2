from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_save, pre_save

        from .receivers import note_password_change, revoke_tokens_after_password_change

        pre_save.connect(note_password_change, sender=settings.AUTH_USER_MODEL, dispatch_uid="ledger-password")
        post_save.connect(
            revoke_tokens_after_password_change, sender=settings.AUTH_USER_MODEL, dispatch_uid="ledger-password"
        )
