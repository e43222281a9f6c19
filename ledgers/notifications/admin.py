from django.contrib import admin

from .models import Mail, Subscription


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = ("establishment", "kind", "level", "role")
    list_filter = ("establishment", "kind", "level")


@admin.register(Mail)
class MailAdmin(admin.ModelAdmin):
    """The outbox, read-only: what is pending, since when, and why."""

    list_display = ("address", "notice", "status", "attempts", "next_attempt_at", "sent_at", "last_error")
    list_filter = ("status",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
