from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("Infrastructure")

    def ready(self) -> None:
        from django.contrib.auth.models import User
        from django.db.models.signals import post_migrate, post_save, pre_save
        from django.utils.translation import gettext

        from . import errors, logging
        from .roles import create_role_groups
        from .tokens import end_tokens_after_password_change, note_password_change

        logging.configure()
        errors.install_translator(gettext)
        # Also after a test flush, which empties the groups the migration made.
        # Without a sender: it acts once the last app's permissions exist.
        post_migrate.connect(create_role_groups, dispatch_uid="core.role_groups")
        pre_save.connect(note_password_change, sender=User)
        post_save.connect(end_tokens_after_password_change, sender=User)
